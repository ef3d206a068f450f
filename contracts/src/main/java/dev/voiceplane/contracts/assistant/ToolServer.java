package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.HttpUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;

/**
 * The customer's server that receives requests: a tool's calls, or (as an assistant's or a phone number's
 * {@code server}) its server messages. {@code secret} is their own webhook secret: write-only (never in a public
 * answer, see {@link AssistantSecrets}), sent to {@code url} in {@code x-vapi-secret}. {@code headers} (string
 * values, checked by {@link ServerHeadersValidator}) are sent with every request, and {@code timeoutSeconds} bounds
 * each one (the hosted platform's range, 1 to 300; docs/api-reference.md "The server object").
 */
@RegisterForReflection
public record ToolServer(
        @NotNull @HttpUrl String url,
        String secret,
        @ServerHeaders ObjectNode headers,
        @DecimalMin("1") @DecimalMax("300") BigDecimal timeoutSeconds) {
}
