package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.kit.validation.HttpUrl;
import dev.voiceplane.contracts.catalog.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/**
 * The language model of an assistant. Any {@code model} string is accepted and is the one sent (catalogues change
 * monthly); {@code fallbackModels}, {@code semanticCachingEnabled} and {@code numFastTurns} belong to openai models
 * only, {@code url} to custom-llm models, which require it, {@code thinking} to anthropic and anthropic-bedrock models
 * (see {@link ModelRules}).
 */
@RegisterForReflection
@ModelRules
public record Model(
        List<@NotNull @Valid ModelMessage> messages,
        List<@NotNull @Valid Tool> tools,
        List<@NotNull String> toolIds,
        @NotNull @ProviderOf(ProviderCatalogue.MODEL) String provider,
        @NotNull String model,
        List<@NotNull String> fallbackModels,
        Boolean semanticCachingEnabled,
        @DecimalMin("0") BigDecimal numFastTurns,
        @DecimalMin("0") @DecimalMax("2") BigDecimal temperature,
        @Valid KnowledgeBase knowledgeBase,
        @DecimalMin("50") @DecimalMax("1000") BigDecimal maxTokens,
        Boolean emotionRecognitionEnabled,
        @HttpUrl String url,
        @Valid AnthropicThinking thinking) {
}
