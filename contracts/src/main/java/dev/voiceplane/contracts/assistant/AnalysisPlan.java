package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;

/** What is worked out from a call once it has ended: a summary, a success evaluation, structured data. */
@RegisterForReflection
public record AnalysisPlan(
        @Size(max = 2000) String summaryPrompt,
        @Size(max = 2000) String successEvaluationPrompt,
        @OneOf({"NumericScale", "DescriptiveScale", "Checklist", "Matrix", "PercentageScale", "LikertScale",
                "AutomaticRubric", "PassFail"}) String successEvaluationRubric,
        @Size(max = 2000) String structuredDataPrompt,
        @Valid StructuredDataSchema structuredDataSchema) {
}
