package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiException;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The request body size limit, {@code voice.http.max-body-size}, and the one 413 the API answers above it. A body
 * can be found too large in three places, all of which answer with {@link #tooLarge()}: its declared
 * {@code Content-Length} ({@link RequestLimits}), counting a chunked body while it is read ({@link RequestBodyReader}),
 * and the HTTP layer's own backstop ({@code quarkus.http.limits.max-body-size}, set higher; {@link RequestPipeline}).
 */
@Singleton
public class BodyLimit {

    private final long maxBytes;
    private final Instance<RouteBodyLimit> routeLimits;

    BodyLimit(@ConfigProperty(name = "voice.http.max-body-size", defaultValue = "1M") MemorySize maxBodySize,
            @Any Instance<RouteBodyLimit> routeLimits) {
        this.maxBytes = maxBodySize.asLongValue();
        this.routeLimits = routeLimits;
    }

    /** The limit of this request: a service's {@link RouteBodyLimit} where it declares one, else the service-wide one. */
    public RouteBodyLimit.Limit limitFor(HttpServerRequest request) {
        for (RouteBodyLimit routes : routeLimits) {
            Optional<RouteBodyLimit.Limit> limit = routes.limitFor(request);
            if (limit.isPresent()) {
                return limit.get();
            }
        }
        return new RouteBodyLimit.Limit(maxBytes, tooLargeMessage());
    }

    public long maxBytes() {
        return maxBytes;
    }

    public ApiException tooLarge() {
        return ApiException.tooLarge(tooLargeMessage());
    }

    private String tooLargeMessage() {
        return "request body is too large (at most " + maxBytes + " bytes)";
    }
}
