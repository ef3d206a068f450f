package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code startSpeakingPlan.smartEndpointingPlan}: a model that decides whether the caller has finished. Accepted and
 * stored; the runtime has no such model and runs the transcription rules instead (docs/voice-runtime.md,
 * "Turn-taking"). {@code waitFunction} is LiveKit's, {@code server} the custom endpointing model's (its
 * {@code secret} write-only, see {@link AssistantSecrets}).
 */
@RegisterForReflection
public record SmartEndpointingPlan(
        @NotNull @OneOf({"vapi", "livekit", "custom-endpointing-model"}) String provider,
        @Size(max = 1000) String waitFunction,
        @Valid ToolServer server) {
}
