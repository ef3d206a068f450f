package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.InlinePhoneNumber;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.AssistantSecrets;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.json.MergePatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration a call runs with, frozen at creation: {@code assistant}, {@code assistantOverrides},
 * {@code squad}, the stored assistants its members name ({@code squadAssistants}: [{id, assistant}]), the stored
 * tools their {@code model.toolIds} name ({@code tools}: [{id, tool}]) and the {@code phoneNumber}. The customer's webhook secrets in it are sealed at rest exactly as assistant-service seals
 * them (the kit's {@link AssistantSecrets} paths, one {@link SealedFields}), bound to the call, and never shown:
 * the Call (and so every server message) is built from {@link #readWithoutSecrets}. The tree is kept as the client
 * sent it (stored, shown and handed to the runtime); what the code decides with is read from it once into
 * {@link AssistantSettings} (the call's assistant) and {@link FrozenConfiguration} (its numbers, squad members and
 * frozen tools).
 */
@ApplicationScoped
public class Configurations {

    /** Where a call created with an inline {@code phoneNumber} keeps its import body (normalised, secrets sealed). */
    public static final String INLINE_PHONE_NUMBER = "inlinePhoneNumber";

    static final SealedFields SECRETS = new SealedFields(secretPaths());

    private final ObjectMapper json;
    private final SecretBox box;
    private final MergePatch merge;

    public Configurations(ObjectMapper json, SecretBox box, MergePatch merge) {
        this.json = json;
        this.box = box;
        this.merge = merge;
    }

    private static List<String> secretPaths() {
        List<String> paths = new ArrayList<>(AssistantSecrets.under("assistant.", "assistantOverrides.",
                "squad.members.*.assistant.", "squad.members.*.assistantOverrides.", "squadAssistants.*.assistant."));
        paths.add("phoneNumber.serverUrlSecret");
        paths.add("tools.*.tool.server.secret");
        InlinePhoneNumber.SECRET_FIELDS.forEach(field -> paths.add(INLINE_PHONE_NUMBER + "." + field));
        return paths;
    }

    /** The stored text of a configuration, its secrets sealed for the call. */
    public String write(ObjectNode configuration, String context) {
        try {
            return json.writeValueAsString(SECRETS.seal(configuration.deepCopy(), box, context));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a call configuration cannot be written as JSON", e);
        }
    }

    /** The stored configuration, its secrets opened. */
    public ObjectNode read(String stored, String context) {
        try {
            return SECRETS.open((ObjectNode) json.readTree(stored), box, context);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored call configuration is not the JSON object it was written as", e);
        }
    }

    /**
     * The stored configuration as the public API shows it: its secrets left out, not opened (they are write-only;
     * the voice runtime reads them opened through {@code GET /internal/call/{id}/runtime}).
     */
    public ObjectNode readWithoutSecrets(String stored) {
        try {
            return SECRETS.remove((ObjectNode) json.readTree(stored));
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored call configuration is not the JSON object it was written as", e);
        }
    }

    /** The parts of an opened configuration the code decides with, beside its assistants. */
    public FrozenConfiguration frozen(ObjectNode configuration) {
        return FrozenConfiguration.of(configuration, json);
    }

    /**
     * The assistant the call starts with: the assistant, or the squad's first member's (inline or stored), with
     * the member's and then the call's overrides applied by the kit's PATCH rule and validated as a body is
     * ({@code variableValues} are not assistant fields and stay apart).
     */
    public ObjectNode effectiveAssistant(ObjectNode configuration) {
        if (configuration.get("assistant") instanceof ObjectNode assistant) {
            return applied(assistant, configuration.get("assistantOverrides"));
        }
        List<SquadMember> members = SquadMember.all(configuration.get("squad"));
        return members.isEmpty() ? json.createObjectNode() : member(configuration, members.get(0));
    }

    /** One squad member's assistant with its overrides and the call's applied. */
    public ObjectNode member(ObjectNode configuration, SquadMember member) {
        ObjectNode base = member.assistant()
                .orElseGet(() -> stored(configuration, member.assistantId().orElse("")));
        ObjectNode withMember = applied(base, member.assistantOverrides().orElse(null));
        return applied(withMember, configuration.get("assistantOverrides"));
    }

    /** The call's {@code variableValues}, else the first squad member's. */
    public JsonNode variableValues(ObjectNode configuration) {
        JsonNode values = configuration.path("assistantOverrides").get("variableValues");
        if (values == null) {
            values = configuration.path("squad").path("members").path(0).path("assistantOverrides").get("variableValues");
        }
        return values;
    }

    private ObjectNode stored(ObjectNode configuration, String assistantId) {
        for (JsonNode stored : configuration.path("squadAssistants")) {
            if (assistantId.equals(stored.path("id").asText()) && stored.get("assistant") instanceof ObjectNode a) {
                return a;
            }
        }
        return json.createObjectNode();
    }

    private ObjectNode applied(ObjectNode assistant, JsonNode overrides) {
        ObjectNode base = assistant.deepCopy();
        if (!(overrides instanceof ObjectNode patch) || patch.isEmpty()) {
            return base;
        }
        ObjectNode changes = patch.deepCopy();
        changes.remove("variableValues");
        AssistantBody merged = merge.apply(base, changes, AssistantBody.class);
        return json.valueToTree(merged);
    }
}
