package dev.voiceplane.call.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;

/** {@code call.costBreakdown} (docs/calls.md, "Rate card"): USD amounts and the usage they were computed from. */
@RegisterForReflection
public record CostBreakdown(
        BigDecimal transport,
        BigDecimal stt,
        BigDecimal llm,
        BigDecimal tts,
        BigDecimal platform,
        BigDecimal total,
        Long llmPromptTokens,
        Long llmCompletionTokens,
        Long ttsCharacters,
        AnalysisCostBreakdown analysisCostBreakdown) {

    @RegisterForReflection
    public record AnalysisCostBreakdown(
            BigDecimal summary,
            Long summaryPromptTokens,
            Long summaryCompletionTokens,
            BigDecimal structuredData,
            Long structuredDataPromptTokens,
            Long structuredDataCompletionTokens,
            BigDecimal successEvaluation,
            Long successEvaluationPromptTokens,
            Long successEvaluationCompletionTokens) {
    }
}
