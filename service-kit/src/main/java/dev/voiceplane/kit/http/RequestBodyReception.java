package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Receives a request body in full before anything else runs: at most {@link BodyLimit} bytes however it is sent
 * (a chunked body declares no length; 413 as soon as it exceeds), and a client that stops sending it for longer
 * than {@code voice.http.body-timeout} gets a 408 and the connection is closed. Either way no resource ran, so
 * nothing was written. The JAX-RS layer then reads the received body from memory. Multipart bodies (uploads) are
 * left to the HTTP layer, which streams them to disk under its own limits.
 */
@Singleton
class RequestBodyReception {

    private final BodyLimit limit;
    private final long idleMillis;

    RequestBodyReception(BodyLimit limit,
            @ConfigProperty(name = "voice.http.body-timeout", defaultValue = "10s") Duration idle) {
        this.limit = limit;
        this.idleMillis = Math.max(1, idle.toMillis());
    }

    void receive(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded() || !hasBody(request) || isMultipart(request)) {
            ctx.next();
            return;
        }
        new Reception(ctx).start();
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.headers().contains(HttpHeaders.TRANSFER_ENCODING) || (length != null && !length.strip().equals("0"));
    }

    private static boolean isMultipart(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        return type != null && type.regionMatches(true, 0, "multipart/", 0, "multipart/".length());
    }

    /** One body being received; every callback runs on the connection's event loop. */
    private final class Reception {
        private final RoutingContext ctx;
        private final Buffer body = Buffer.buffer();
        private long timer = -1;
        private boolean over;

        Reception(RoutingContext ctx) {
            this.ctx = ctx;
        }

        void start() {
            HttpServerRequest request = ctx.request();
            if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
                ctx.response().writeContinue();
            }
            request.handler(chunk -> {
                if (over) {
                    return;
                }
                if ((long) body.length() + chunk.length() > limit.maxBytes()) {
                    refuse(limit.tooLarge().toError());
                    return;
                }
                body.appendBuffer(chunk);
                arm();
            });
            request.endHandler(end -> {
                if (over) {
                    return;
                }
                over = true;
                ctx.vertx().cancelTimer(timer);
                ctx.setBody(body);
                ctx.next();
            });
            request.exceptionHandler(failure -> {
                // The connection broke; there is nobody to answer.
                over = true;
                ctx.vertx().cancelTimer(timer);
            });
            arm();
            request.resume();
        }

        private void arm() {
            if (timer >= 0) {
                ctx.vertx().cancelTimer(timer);
            }
            timer = ctx.vertx().setTimer(idleMillis, fired -> {
                if (!over) {
                    refuse(ApiError.of(408, "request body did not arrive in time (nothing for " + idleMillis
                            + " ms); nothing was stored"));
                }
            });
        }

        private void refuse(ApiError error) {
            over = true;
            ctx.vertx().cancelTimer(timer);
            RequestPipeline.refuse(ctx, error);
        }
    }
}
