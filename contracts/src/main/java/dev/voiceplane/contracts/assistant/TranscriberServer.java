package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;

/**
 * A custom-transcriber's {@code server}: the customer's own transcription server, the fields of {@link ToolServer}
 * (a write-only {@code secret}, {@code headers}, {@code timeoutSeconds} 1..300) with a WebSocket address allowed, as
 * the hosted platform connects to it over one.
 */
@RegisterForReflection
public record TranscriberServer(
        @NotNull @SocketOrHttpUrl String url,
        String secret,
        @ServerHeaders ObjectNode headers,
        @DecimalMin("1") @DecimalMax("300") BigDecimal timeoutSeconds) {
}
