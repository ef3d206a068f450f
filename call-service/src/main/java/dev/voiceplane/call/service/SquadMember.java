package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One member of a call's squad as frozen, read once from the tree: which assistant it runs (its inline
 * {@code assistant}, else the stored one its {@code assistantId} names, frozen in {@code squadAssistants}), the
 * overrides applied to it, and its {@code assistantDestinations}. The assistant, the overrides and the destinations
 * stay the JSON the client wrote: they are merged and handed to the voice runtime, not decided on here.
 *
 * @param assistantId           the stored assistant it names, when given as text
 * @param assistant             its inline assistant, when it has one (an object)
 * @param assistantOverrides    its own overrides (an object), applied before the call's
 * @param assistantDestinations where it may hand the call, as written (present, even as null, when the member has the field)
 */
public record SquadMember(Optional<String> assistantId, Optional<ObjectNode> assistant,
        Optional<ObjectNode> assistantOverrides, Optional<JsonNode> assistantDestinations) {

    /** A member as stored in a squad's {@code members}. */
    public static SquadMember of(JsonNode member) {
        JsonNode id = member.get("assistantId");
        return new SquadMember(id != null && id.isTextual() ? Optional.of(id.asText()) : Optional.empty(),
                object(member.get("assistant")), object(member.get("assistantOverrides")),
                Optional.ofNullable(member.get("assistantDestinations")));
    }

    /** The members of a squad as stored, in order; none when it has no {@code members} list. */
    public static List<SquadMember> all(JsonNode squad) {
        List<SquadMember> members = new ArrayList<>();
        if (squad != null && squad.path("members").isArray()) {
            squad.path("members").forEach(member -> members.add(of(member)));
        }
        return List.copyOf(members);
    }

    /** The {@code variableValues} of its own overrides, when they are an object. */
    public Optional<ObjectNode> variableValues() {
        return assistantOverrides.flatMap(overrides -> object(overrides.get("variableValues")));
    }

    private static Optional<ObjectNode> object(JsonNode node) {
        return node instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
    }
}
