package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.HttpUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/**
 * The customer's server that receives this tool's calls; {@code secret} is their own webhook secret: write-only
 * (never in a public answer, see {@link AssistantSecrets}), sent to {@code url} in {@code x-vapi-secret}.
 */
@RegisterForReflection
public record ToolServer(
        @NotNull @HttpUrl String url,
        String secret) {
}
