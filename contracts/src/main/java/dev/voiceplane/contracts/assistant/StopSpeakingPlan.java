package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/**
 * When the caller's speech stops the assistant (today's SDK's {@code stopSpeakingPlan}; docs/voice-runtime.md
 * "Turn-taking"): {@code numWords} transcribed words (0: the voice alone, once it has lasted {@code voiceSeconds}),
 * {@code backoffSeconds} of quiet after an interruption, phrases that always interrupt and phrases that never do.
 * Given, it replaces the era's {@code numWordsToInterruptAssistant}.
 */
@RegisterForReflection
public record StopSpeakingPlan(
        @DecimalMin("0") @DecimalMax("10") BigDecimal numWords,
        @DecimalMin("0") @DecimalMax("0.5") BigDecimal voiceSeconds,
        @DecimalMin("0") @DecimalMax("10") BigDecimal backoffSeconds,
        List<@NotNull String> acknowledgementPhrases,
        List<@NotNull String> interruptionPhrases) {
}
