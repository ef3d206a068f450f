package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiException;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.inject.Singleton;
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

    BodyLimit(@ConfigProperty(name = "voice.http.max-body-size", defaultValue = "1M") MemorySize maxBodySize) {
        this.maxBytes = maxBodySize.asLongValue();
    }

    public long maxBytes() {
        return maxBytes;
    }

    public ApiException tooLarge() {
        return ApiException.tooLarge("request body is too large (at most " + maxBytes + " bytes)");
    }
}
