package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiError;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Rejects a request whose declared body is larger than {@code voice.http.max-body-size} with a 413 in the
 * error shape. The HTTP layer's own limit ({@code quarkus.http.limits.max-body-size}) is set higher and
 * stays as the backstop for chunked bodies, which it cuts off with a bare 413.
 */
@Singleton
public class RequestBodyLimit {

    private final long maxBytes;

    RequestBodyLimit(@ConfigProperty(name = "voice.http.max-body-size", defaultValue = "1M") MemorySize maxBodySize) {
        this.maxBytes = maxBodySize.asLongValue();
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, 900);
    }

    private void check(RoutingContext ctx) {
        String declared = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared != null && exceeds(declared)) {
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
            FallbackRoutes.write(ctx, ApiError.of(413, "request body is too large (at most " + maxBytes + " bytes)"));
            return;
        }
        ctx.next();
    }

    private boolean exceeds(String declared) {
        try {
            return Long.parseLong(declared.strip()) > maxBytes;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
