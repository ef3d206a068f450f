package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.telephony.InlinePhoneNumber;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What call-service decides with from a call's frozen configuration ({@link Configurations}) beside its assistants,
 * read once from the opened tree into types: the number the call is on, the inline number telephony-service dials
 * it from, the squad's members. The tree stays what is stored, shown and handed to the runtime; what the call's
 * assistant says is {@link AssistantSettings}.
 *
 * @param phoneNumber       the number's configuration as frozen (imported, inline or inbound): its carrier and server
 * @param inlinePhoneNumber an inline number's import body as frozen (secrets as the tree holds them: opened when read
 *                          through {@link Configurations#read}), which telephony-service dials and hangs up with
 * @param squad             the squad's members in order, when the call runs a squad
 * @param tools             the stored tools the assistants' {@code model.toolIds} name, by id, as frozen (their
 *                          definitions go to the runtime as written)
 */
public record FrozenConfiguration(Optional<PhoneNumberConfiguration> phoneNumber,
        Optional<InlinePhoneNumber> inlinePhoneNumber, Optional<List<SquadMember>> squad,
        Map<String, ObjectNode> tools) {

    public FrozenConfiguration {
        tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
    }

    /**
     * The parts of a configuration as stored; {@code json} reads the numbers, which the call froze as the contract's
     * records (so they read back as written).
     */
    public static FrozenConfiguration of(JsonNode configuration, ObjectMapper json) {
        JsonNode squad = configuration.get("squad");
        return new FrozenConfiguration(
                record(configuration.get("phoneNumber"), PhoneNumberConfiguration.class, json),
                record(configuration.get(Configurations.INLINE_PHONE_NUMBER), InlinePhoneNumber.class, json),
                squad instanceof ObjectNode ? Optional.of(SquadMember.all(squad)) : Optional.empty(),
                tools(configuration.path("tools")));
    }

    /** The squad's members; none for a call with one assistant. */
    public List<SquadMember> squadMembers() {
        return squad.orElse(List.of());
    }

    /**
     * The carrier the call is on, as the frozen number says; twilio when it does not say.
     */
    public String carrier() {
        return phoneNumber.map(PhoneNumberConfiguration::carrier).orElse("twilio");
    }

    /** The frozen {@code tools}: [{id, tool}] (see {@link AssistantFreezing}). */
    private static Map<String, ObjectNode> tools(JsonNode frozen) {
        Map<String, ObjectNode> tools = new LinkedHashMap<>();
        for (JsonNode entry : frozen) {
            if (entry.path("id").isTextual() && entry.get("tool") instanceof ObjectNode tool) {
                tools.putIfAbsent(entry.path("id").asText(), tool);
            }
        }
        return tools;
    }

    private static <T> Optional<T> record(JsonNode node, Class<T> type, ObjectMapper json) {
        if (!(node instanceof ObjectNode object)) {
            return Optional.empty();
        }
        try {
            return Optional.of(json.treeToValue(object, type));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException("a call's frozen " + type.getSimpleName() + " is not what was written", e);
        }
    }
}
