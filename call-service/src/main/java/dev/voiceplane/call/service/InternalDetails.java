package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * The internal part of a call's details ({@link Details#INTERNAL}, never shown), read once into types: what was
 * kept from the frozen assistant at creation ({@link Details#keep}), so later steps decide without opening the
 * configuration, and what the carrier and the runtime reported since.
 *
 * @param serverMessages          the kinds of server messages asked for; empty for a call that kept none
 * @param voicemailDetectionTypes the answering-machine results that count as voicemail, when the assistant names them
 * @param leavesVoicemailMessage  whether the runtime leaves a voicemail message on an answering machine
 * @param voicemailAnsweredBy     a machine result that came before the runtime gave its address
 * @param refusal                 what telephony-service says to an inbound caller who is refused
 * @param usage                   what the runtime reported it used (zero until it did)
 */
public record InternalDetails(Optional<List<String>> serverMessages, Optional<List<String>> voicemailDetectionTypes,
        boolean leavesVoicemailMessage, Optional<String> voicemailAnsweredBy, Optional<String> refusal,
        RuntimeUsage usage) {

    /**
     * What the runtime reported using, for the rate card: its lines (empty from a runtime of the previous release,
     * whose totals are then what is costed) and its totals.
     */
    public record RuntimeUsage(BigDecimal sttSeconds, long llmPromptTokens, long llmCompletionTokens,
            long ttsCharacters, List<Costs.Line> lines) {

        /** Totals without lines (a runtime of the previous release). */
        public RuntimeUsage(BigDecimal sttSeconds, long llmPromptTokens, long llmCompletionTokens, long ttsCharacters) {
            this(sttSeconds, llmPromptTokens, llmCompletionTokens, ttsCharacters, List.of());
        }

        static RuntimeUsage of(JsonNode usage) {
            List<Costs.Line> lines = new java.util.ArrayList<>();
            for (JsonNode line : usage.path("lines")) {
                lines.add(new Costs.Line(line.path("provider").asText(null), line.path("model").asText(null),
                        line.path("kind").asText(), line.path("quantity").decimalValue(), line.path("unit").asText()));
            }
            return new RuntimeUsage(
                    usage.path("sttSeconds").isNumber() ? usage.path("sttSeconds").decimalValue() : BigDecimal.ZERO,
                    usage.path("llmPromptTokens").asLong(0), usage.path("llmCompletionTokens").asLong(0),
                    usage.path("ttsCharacters").asLong(0), List.copyOf(lines));
        }
    }

    /** The internal part as stored (missing fields read as nothing asked, nothing reported). */
    static InternalDetails of(JsonNode internal) {
        JsonNode answeredBy = internal.path(Voicemails.ANSWERED_BY);
        JsonNode refusal = internal.get(InboundCalls.REFUSAL_FIELD);
        return new InternalDetails(AssistantSettings.texts(internal.get(Details.SERVER_MESSAGES)),
                AssistantSettings.texts(internal.get(Details.VOICEMAIL_DETECTION_TYPES)),
                internal.path(Voicemails.HAS_MESSAGE).asBoolean(false),
                Optional.ofNullable(answeredBy.asText(null)),
                refusal == null ? Optional.empty() : Optional.of(refusal.asText()),
                RuntimeUsage.of(internal.path(Details.USAGE)));
    }

    /** Whether server messages of this kind are written for the call: the kinds kept, else the default list. */
    public boolean asks(String kind) {
        return serverMessages.orElse(AssistantSettings.DEFAULT_SERVER_MESSAGES).contains(kind);
    }
}
