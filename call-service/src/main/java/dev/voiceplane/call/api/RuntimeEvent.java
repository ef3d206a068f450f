package dev.voiceplane.call.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.HttpUrl;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/call/{id}/runtime/events}: what the voice runtime reports (docs/calls.md "Runtime
 * contract"). {@code sequence} is the runtime's own counter per call: an event is recorded once per sequence, and
 * transcript messages are ordered by it whatever order they arrive in.
 */
@RegisterForReflection
public record RuntimeEvent(
        @NotNull @Min(0) Long sequence,
        @NotNull @OneOf({"in-progress", "message", "forwarding", "hang", "ended", "server-message"}) String type,
        /** type message: one transcript message, {@code role} and {@code message} required. */
        ObjectNode message,
        /** type forwarding: where the call is being transferred. */
        @Size(max = 40) String forwardedPhoneNumber,
        /** type ended: how it ended, the usage totals and the recordings. */
        String endedReason,
        @Valid Usage usage,
        @HttpUrl String recordingUrl,
        @HttpUrl String stereoRecordingUrl,
        /** type server-message: one live server message, {@code type} its kind (docs/calls.md, "Live messages"). */
        ObjectNode serverMessage) {

    /** Usage totals of the call: speech-to-text seconds, language-model tokens, speech characters. */
    @RegisterForReflection
    public record Usage(
            @Min(0) Double sttSeconds,
            @Min(0) Long llmPromptTokens,
            @Min(0) Long llmCompletionTokens,
            @Min(0) Long ttsCharacters) {
    }
}
