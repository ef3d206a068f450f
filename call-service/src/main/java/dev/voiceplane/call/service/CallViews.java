package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.api.InlinePhoneNumber;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.repository.CallDocuments;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

/**
 * A call as the API shows it, from its row and its documents: its frozen configuration without the secrets in it
 * (write-only: the same view goes into every server message, so no message body carries one either).
 */
@ApplicationScoped
public class CallViews {

    private final ObjectMapper json;
    private final Details details;
    private final Configurations configurations;
    private final CallDocuments documents;

    public CallViews(ObjectMapper json, Details details, Configurations configurations, CallDocuments documents) {
        this.json = json;
        this.details = details;
        this.configurations = configurations;
        this.documents = documents;
    }

    public CallView view(Call call) {
        return view(call, documents.read(call.orgId, call.id));
    }

    /** The calls of one organisation, their documents read in one query. */
    public List<CallView> views(String orgId, List<Call> calls) {
        Map<java.util.UUID, CallDocuments.Stored> stored = documents.readAll(orgId, calls.stream().map(c -> c.id).toList());
        return calls.stream().map(call -> view(call, stored.get(call.id))).toList();
    }

    public CallView view(Call call, CallDocuments.Stored stored) {
        ObjectNode row = details.read(call);
        ObjectNode configuration = stored == null ? json.createObjectNode()
                : configurations.readWithoutSecrets(stored.configuration());
        List<JsonNode> messages = stored == null ? List.of() : messages(stored.messages());
        return new CallView(call.id.toString(), call.orgId, call.createdAt, call.updatedAt, call.typeText(), call.statusText(),
                call.endedReasonText(), call.startedAt, call.endedAt, call.cost, row.get("costBreakdown"), costs(row),
                messages.isEmpty() ? null : transcript(messages), text(row, "recordingUrl"),
                text(row, "stereoRecordingUrl"), row.get("analysis"), messages,
                call.phoneCallProvider, call.phoneCallProviderId, call.phoneCallTransport,
                row.get("phoneCallProviderDetails"), text(row, "webCallUrl"), text(row, "forwardedPhoneNumber"),
                call.assistantId, configuration.get("assistant"), configuration.get("assistantOverrides"),
                call.squadId, configuration.get("squad"), call.customerId, row.get("customer"), call.phoneNumberId,
                configuration.get(Configurations.INLINE_PHONE_NUMBER) instanceof ObjectNode inline
                        ? InlinePhoneNumber.shown(inline) : null,
                call.name, row.get("metadata"));
    }

    /** {@code costs} once the call was costed (absent before, and for a call costed by an earlier release). */
    private static List<JsonNode> costs(ObjectNode row) {
        JsonNode costs = row.get("costs");
        if (costs == null || !costs.isArray()) {
            return null;
        }
        List<JsonNode> entries = new java.util.ArrayList<>();
        costs.forEach(entries::add);
        return entries;
    }

    /** The transcript messages in the runtime's order (their sequence numbers). */
    public List<JsonNode> messages(String stored) {
        ObjectNode bySequence;
        try {
            bySequence = (ObjectNode) json.readTree(stored);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("stored call messages are not a JSON object", e);
        }
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(bySequence.properties());
        entries.sort(Comparator.comparingLong(entry -> Long.parseLong(entry.getKey())));
        return entries.stream().map(Map.Entry::getValue).toList();
    }

    /** The era's transcript: one line per spoken message, "AI: ..." for the assistant, "User: ..." for the customer. */
    public static String transcript(List<JsonNode> messages) {
        StringBuilder text = new StringBuilder();
        for (JsonNode message : messages) {
            String role = message.path("role").asText();
            String speaker = switch (role) {
                case "bot", "assistant" -> "AI";
                case "user" -> "User";
                default -> null;
            };
            if (speaker != null) {
                text.append(speaker).append(": ").append(message.path("message").asText()).append('\n');
            }
        }
        return text.toString();
    }

    private static String text(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    static boolean anySpoken(Iterable<JsonNode> messages) {
        return StreamSupport.stream(messages.spliterator(), false)
                .anyMatch(m -> !"system".equals(m.path("role").asText()));
    }
}
