package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import java.math.BigDecimal;

/**
 * How long the caller's final words wait before they end the turn, by how they end: with a number, with
 * punctuation, without it (defaults 0.5, 0.1 and 1.5 s; docs/voice-runtime.md "Turn-taking").
 */
@RegisterForReflection
public record TranscriptionEndpointingPlan(
        @DecimalMin("0") @DecimalMax("3") BigDecimal onPunctuationSeconds,
        @DecimalMin("0") @DecimalMax("3") BigDecimal onNoPunctuationSeconds,
        @DecimalMin("0") @DecimalMax("3") BigDecimal onNumberSeconds) {
}
