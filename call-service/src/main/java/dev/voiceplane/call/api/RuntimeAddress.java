package dev.voiceplane.call.api;

import dev.voiceplane.kit.validation.HttpUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/call/{id}/runtime/address}: where call-service reaches the runtime replica that holds the
 * call (its own internal base URL, e.g. {@code http://10.0.3.7:8080}).
 */
@RegisterForReflection
public record RuntimeAddress(@NotNull @HttpUrl @Size(max = 300) String url) {
}
