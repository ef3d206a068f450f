package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/**
 * When the assistant starts speaking after the caller (today's SDK's {@code startSpeakingPlan}; docs/voice-runtime.md
 * "Turn-taking"): {@code waitSeconds} replaces the era's {@code responseDelaySeconds}, the transcription rules wait
 * after the caller's final words by how they end. {@code smartEndpointingEnabled} is {@code true}, {@code false} or
 * {@code "livekit"} (checked by {@link StartSpeakingPlanRulesValidator}); {@code customEndpointingRules} are kept
 * as sent (each any JSON object).
 */
@RegisterForReflection
@StartSpeakingPlanRules
public record StartSpeakingPlan(
        @DecimalMin("0") @DecimalMax("5") BigDecimal waitSeconds,
        JsonNode smartEndpointingEnabled,
        @Valid SmartEndpointingPlan smartEndpointingPlan,
        List<@NotNull ObjectNode> customEndpointingRules,
        @Valid TranscriptionEndpointingPlan transcriptionEndpointingPlan) {
}
