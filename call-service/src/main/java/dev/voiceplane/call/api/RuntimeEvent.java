package dev.voiceplane.call.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.HttpUrl;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;

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

    /**
     * What the call used: its lines (docs/calls.md, "Runtime contract"), which are what is costed when they are there,
     * and the four totals of the earlier contract (speech-to-text seconds, language-model tokens, speech characters),
     * costed when they are not (a runtime of the previous release).
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Usage(
            @Min(0) Double sttSeconds,
            @Min(0) Long llmPromptTokens,
            @Min(0) Long llmCompletionTokens,
            @Min(0) Long ttsCharacters,
            @Valid @Size(max = MAX_LINES) List<@NotNull @Valid UsageLine> lines) {

        /** More lines than a call of many squad members on different providers could have. */
        public static final int MAX_LINES = 200;
    }

    /**
     * One line of a call's usage: {@code quantity} {@code unit}s of {@code kind} from {@code provider}'s
     * {@code model} (the transcriber's model, the model's id, the voice's id; absent when the assistant named none).
     * The kinds and their units are contracts' {@code UsageKinds}.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record UsageLine(
            @NotBlank @Size(max = 100) String provider,
            @Size(max = 200) String model,
            @NotNull @OneOf({"transcription", "prompt-tokens", "cached-prompt-tokens", "cache-write-prompt-tokens",
                    "completion-tokens", "text-input-tokens", "audio-input-tokens", "cached-text-input-tokens",
                    "cached-audio-input-tokens", "text-output-tokens", "audio-output-tokens", "characters"})
            String kind,
            @NotNull @DecimalMin("0") @DecimalMax("1000000000000") BigDecimal quantity,
            @NotNull @OneOf({"seconds", "tokens", "characters"}) String unit) {
    }
}
