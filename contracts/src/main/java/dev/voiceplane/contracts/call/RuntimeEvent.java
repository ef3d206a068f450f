package dev.voiceplane.contracts.call;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.Map;

/**
 * One event of the runtime about a call ({@code POST /internal/call/{id}/runtime/events}), as the voice runtime
 * sends it: {@code sequence} is the runtime's own counter per call, so a retried event is recorded once and transcript
 * messages keep their order. call-service reads the same body as its {@code api.RuntimeEvent}, whose fields are
 * boxed and validated so that a missing field is a 400 rather than a zero; this record's primitives are what the
 * runtime always has.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RuntimeEvent(long sequence, String type, Map<String, Object> message, String forwardedPhoneNumber,
        String endedReason, Usage usage, String recordingUrl, String stereoRecordingUrl,
        Map<String, Object> serverMessage) {

    /** The event type of a live server message (docs/voice-runtime.md, "Live messages"). */
    public static final String SERVER_MESSAGE = "server-message";

    /**
     * What the call used: one {@link UsageLine} per provider, model, kind and unit (docs/calls.md, "Runtime
     * contract"), and the four totals of the earlier contract (speech-to-text seconds, the model's input and output
     * tokens, speech characters), which a call-service of the previous release reads and which are the lines summed.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Usage(double sttSeconds, long llmPromptTokens, long llmCompletionTokens, long ttsCharacters,
            List<UsageLine> lines) {

        /** Totals without lines (what a runtime of the earlier contract sends). */
        public Usage(double sttSeconds, long llmPromptTokens, long llmCompletionTokens, long ttsCharacters) {
            this(sttSeconds, llmPromptTokens, llmCompletionTokens, ttsCharacters, null);
        }

        /** The same totals without their lines, for a call-service that does not know them. */
        public Usage withoutLines() {
            return new Usage(sttSeconds, llmPromptTokens, llmCompletionTokens, ttsCharacters, null);
        }
    }

    /**
     * One line of a call's usage: {@code quantity} {@code unit}s of {@code kind} from {@code provider}'s
     * {@code model} (the transcriber's model, the chat or realtime model's id, the voice's id; null when the
     * assistant names none), summed over the call. The kinds and units are {@link UsageKinds}'. A count of tokens or
     * characters is a whole number, seconds have decimals.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record UsageLine(String provider, String model, String kind, Number quantity, String unit) {
    }

    /** This event with its usage's lines left out (see {@link Usage#withoutLines}). */
    public RuntimeEvent withoutUsageLines() {
        return usage == null || usage.lines() == null ? this : new RuntimeEvent(sequence, type, message,
                forwardedPhoneNumber, endedReason, usage.withoutLines(), recordingUrl, stereoRecordingUrl,
                serverMessage);
    }

    public static RuntimeEvent inProgress(long sequence) {
        return new RuntimeEvent(sequence, "in-progress", null, null, null, null, null, null, null);
    }

    public static RuntimeEvent message(long sequence, Map<String, Object> message) {
        return new RuntimeEvent(sequence, "message", message, null, null, null, null, null, null);
    }

    public static RuntimeEvent ended(long sequence, String endedReason, Usage usage) {
        return new RuntimeEvent(sequence, "ended", null, null, endedReason, usage, null, null, null);
    }

    /** A live server message ({@code type} the kind, then its fields), routed by call-service to the outbox. */
    public static RuntimeEvent serverMessage(long sequence, Map<String, Object> serverMessage) {
        return new RuntimeEvent(sequence, SERVER_MESSAGE, null, null, null, null, null, null, serverMessage);
    }

    /** The assistant has not answered for a while (a {@code hang} server message). */
    public static RuntimeEvent hang(long sequence) {
        return new RuntimeEvent(sequence, "hang", null, null, null, null, null, null, null);
    }

    /** {@code ended} with the call's recordings (either URL may be null: not recorded, or the recording failed). */
    public static RuntimeEvent ended(long sequence, String endedReason, Usage usage, String recordingUrl,
            String stereoRecordingUrl) {
        return new RuntimeEvent(sequence, "ended", null, null, endedReason, usage, recordingUrl, stereoRecordingUrl,
                null);
    }
}
