package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;

/**
 * An anthropic (or anthropic-bedrock) model's {@code thinking}, as the published SDK has it
 * ({@code AnthropicThinkingConfig}): {@code type} {@code enabled} and {@code budgetTokens} 1024..100000.
 */
@RegisterForReflection
public record AnthropicThinking(
        @NotNull @OneOf("enabled") String type,
        @NotNull @DecimalMin("1024") @DecimalMax("100000") BigDecimal budgetTokens) {
}
