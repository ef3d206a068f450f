package dev.voiceplane.console;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * What the console's server adds to its static pages (served by Quarkus from {@code META-INF/resources/console}):
 * {@code /console} leads to {@code /console/}, and every page and script is answered with headers that keep it to
 * its own origin. The content security policy lets the console's scripts talk only to the origin that served them
 * (the platform's API behind the same gateway or Ingress), so the API key the browser holds can go nowhere else. The
 * web-call page ({@code web-call.html}, the build's copy of {@code docs/examples/web-call.html}) has its script inline,
 * loads its audio worklet from a {@code data:} URL and opens the runtime's WebSocket: it is given what it needs
 * beyond that, still on this origin only. Anything else under {@code /console} that is not a file is the kit's 404
 * in the error shape. Ranges are not served: a {@code Range} header is dropped and the whole file answered.
 */
@ApplicationScoped
public class ConsolePages {

    static final String PREFIX = "/console";
    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " media-src 'self' blob:; connect-src 'self'; frame-src 'self'; frame-ancestors 'self';"
            + " base-uri 'none'; form-action 'none'";
    static final String TALK_POLICY = "default-src 'none'; script-src 'self' 'unsafe-inline' data:;"
            + " style-src 'unsafe-inline'; img-src data:; media-src 'self' blob:; connect-src 'self' ws: wss:;"
            + " frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

    void routes(@Observes Router router) {
        // Vert.x matches "/console/" to this route as well: only the path without its slash is sent on.
        router.route(PREFIX).order(-10).handler(ctx -> {
            if (!ctx.request().path().equals(PREFIX)) {
                ctx.next();
                return;
            }
            ctx.response()
                    .setStatusCode(302)
                    .putHeader(HttpHeaders.LOCATION, PREFIX + "/")
                    .putHeader(HttpHeaders.CONTENT_LENGTH, "0")
                    .end();
        });
        router.route(PREFIX + "/*").order(-10).handler(ctx -> {
            // The files are a few kilobytes: a range is not served (the whole file is), so the static handler never
            // answers a 416 with an empty body, outside the error shape.
            ctx.request().headers().remove("Range").remove("If-Range");
            boolean talk = ctx.request().path().endsWith("/web-call.html");
            ctx.response()
                    .putHeader("Content-Security-Policy", talk ? TALK_POLICY : POLICY)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .putHeader("Referrer-Policy", "no-referrer")
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache");
            ctx.next();
        });
    }
}
