package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.RequestId;
import io.vertx.ext.web.RoutingContext;
import org.jboss.logging.MDC;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is sane, a new one otherwise.
 * It is echoed on every response (errors included) and put in the logging context as {@code requestId}.
 * Runs first (see {@link RequestPipeline}), so that every answer after it carries the id.
 */
public final class RequestIds {

    public static final String HEADER = RequestRules.REQUEST_ID_HEADER;
    /** Logging-context key of the id (the kit's internal clients forward it). */
    public static final String MDC_KEY = RequestId.MDC_KEY;

    private RequestIds() {
    }

    static void tag(RoutingContext ctx) {
        String id = RequestRules.requestId(ctx.request().getHeader(HEADER));
        ctx.put(RequestId.MDC_KEY, id);
        MDC.put(RequestId.MDC_KEY, id);
        ctx.response().putHeader(HEADER, id);
        ctx.next();
    }
}
