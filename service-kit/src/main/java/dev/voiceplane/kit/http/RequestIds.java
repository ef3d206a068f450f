package dev.voiceplane.kit.http;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jboss.logging.MDC;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is sane, a new one otherwise.
 * It is echoed on every response (errors included) and put in the logging context as {@code requestId}.
 */
@Singleton
public class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";
    private static final Pattern ACCEPTABLE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    void register(@Observes Filters filters) {
        filters.register(this::tag, 1000);
    }

    private void tag(RoutingContext ctx) {
        String offered = ctx.request().getHeader(HEADER);
        String id = offered != null && ACCEPTABLE.matcher(offered).matches() ? offered : UUID.randomUUID().toString();
        ctx.put(MDC_KEY, id);
        MDC.put(MDC_KEY, id);
        ctx.response().putHeader(HEADER, id);
        ctx.next();
    }

    /** The id of the request being served on this thread, or {@code "none"} outside a request. */
    public static String current() {
        Object id = MDC.get(MDC_KEY);
        return id != null ? id.toString() : "none";
    }
}
