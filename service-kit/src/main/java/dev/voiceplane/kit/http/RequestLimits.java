package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiException;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The size limits of a request that can be checked before anything reads it, each answered in the error shape:
 * the request line ({@code voice.http.max-request-line}, 414), the header block ({@code voice.http.max-header-size},
 * 431) and a declared {@code Content-Length} over the body limit (413). The HTTP layer's own limits
 * ({@code quarkus.http.limits.*}) are set well above these and stay only as a backstop, because what it rejects
 * itself it answers with an empty body.
 */
@Singleton
class RequestLimits {

    private final int maxRequestLine;
    private final long maxHeaderBytes;
    private final BodyLimit body;

    RequestLimits(@ConfigProperty(name = "voice.http.max-request-line", defaultValue = "4096") int maxRequestLine,
            @ConfigProperty(name = "voice.http.max-header-size", defaultValue = "16K") MemorySize maxHeaderSize,
            BodyLimit body) {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderBytes = maxHeaderSize.asLongValue();
        this.body = body;
    }

    void check(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        int requestLine = request.method().name().length() + 1 + request.uri().length() + " HTTP/1.1".length();
        if (requestLine > maxRequestLine) {
            throw ApiException.of(414, "request line is too long (at most " + maxRequestLine + " characters)");
        }
        long headerBytes = 0;
        for (Map.Entry<String, String> header : request.headers()) {
            headerBytes += header.getKey().length() + 2 + header.getValue().length() + 2;
        }
        if (headerBytes > maxHeaderBytes) {
            throw ApiException.of(431, "request headers are too large (at most " + maxHeaderBytes + " bytes)");
        }
        String declared = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared != null) {
            RouteBodyLimit.Limit limit = body.limitFor(request);
            if (exceeds(declared, limit.maxBytes())) {
                throw ApiException.tooLarge(limit.message());
            }
        }
    }

    private static boolean exceeds(String declared, long maxBytes) {
        try {
            return Long.parseLong(declared.strip()) > maxBytes;
        } catch (NumberFormatException e) {
            // Not a number: the HTTP layer refuses such a request itself before it gets here.
            return false;
        }
    }
}
