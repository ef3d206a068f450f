package dev.voiceplane.kit.assistant;

import dev.voiceplane.kit.validation.HttpUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/**
 * The customer's server that receives this tool's calls; {@code secret} is their own webhook secret, returned as
 * stored.
 */
@RegisterForReflection
public record ToolServer(
        @NotNull @HttpUrl String url,
        String secret) {
}
