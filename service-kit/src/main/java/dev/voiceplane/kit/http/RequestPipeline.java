package dev.voiceplane.kit.http;

import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.error.ApiError;
import dev.voiceplane.kit.error.ApiException;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What runs on every request, in order (service-kit/README.md tells the same story):
 *
 * <ol>
 * <li>{@link RequestIds}: the request gets its id, echoed on every answer below.</li>
 * <li>{@link Authentication#firstCheck}: a request to a JAX-RS route without a valid API key (or service token, on
 *     {@code /internal/}) is a 401 whatever else is wrong with it; routes declared {@code @VerifiedBy} and paths that
 *     are not JAX-RS routes (Quarkus's {@code /q/}, a service's own Vert.x routes) are passed on.</li>
 * <li>{@link RequestLimits}: request line (414), header block (431), declared body length (413).</li>
 * <li>{@link RequestTargets}: path and query are a URI with well-formed, UTF-8 percent-escapes (400). Quarkus's
 *     own check, which would answer an empty 400 before any of this, is off ({@link TargetCheckHandover}).</li>
 * <li>{@link ContentTypes}: a {@code Content-Type}, when sent, is one media type (415).</li>
 * <li>{@link RequestBodyReception}: the body is received in full (413 beyond the limit, 408 when it stops
 *     arriving).</li>
 * <li>JAX-RS: route matching (404, 405, 415, 406 through {@link ErrorMappers}), then the kit's authentication
 *     filter (401; it verifies signed routes and names the organisation), then {@link RequestBodyReader} (400 when the body is not UTF-8 JSON that can be stored, or
 *     has unknown properties), Jackson binds it, bean validation checks it (400), then the resource runs.</li>
 * <li>{@link ErrorMappers}: every exception becomes the error shape; a 500 quotes the request id.</li>
 * <li>Below JAX-RS, this class: an unknown route is a 404 and a failure of the router or of the HTTP layer's own
 *     limits is answered in the error shape too.</li>
 * </ol>
 *
 * Each step before JAX-RS either passes the request on or answers it and closes the connection (its body, if any,
 * was not read to its end).
 */
@Singleton
public class RequestPipeline {

    /** Vert.x route filters: the higher runs first; all of them before any route. */
    static final int REQUEST_ID = 1000;
    static final int AUTHENTICATION = 995;
    static final int LIMITS = 990;
    static final int TARGET = 980;
    static final int CONTENT_TYPE = 970;
    static final int BODY = 960;

    /** How long a refused request's unread body is drained before the connection is closed anyway. */
    private static final long DRAIN_MILLIS = 2_000;

    /** Statuses the router or the HTTP layer may fail a request with before JAX-RS could answer. */
    private static final int[] ROUTER_FAILURES = {400, 404, 405, 406, 408, 413, 414, 415, 431, 500};

    private final RequestLimits limits;
    private final RequestBodyReception bodies;
    private final BodyLimit bodyLimit;
    private final Authentication authentication;

    RequestPipeline(RequestLimits limits, RequestBodyReception bodies, BodyLimit bodyLimit,
            Authentication authentication) {
        this.limits = limits;
        this.bodies = bodies;
        this.bodyLimit = bodyLimit;
        this.authentication = authentication;
    }

    void filters(@Observes Filters filters) {
        filters.register(RequestIds::tag, REQUEST_ID);
        filters.register(this::authenticateFirst, AUTHENTICATION);
        filters.register(step(limits::check), LIMITS);
        filters.register(step(RequestTargets::check), TARGET);
        filters.register(step(ContentTypes::check), CONTENT_TYPE);
        filters.register(bodies::receive, BODY);
    }

    void routes(@Observes Router router) {
        router.route().last().handler(ctx -> answer(ctx, ApiError.of(404,
                "Cannot " + ctx.request().method().name() + " " + ctx.request().path())));
        for (int status : ROUTER_FAILURES) {
            router.errorHandler(status, ctx -> answer(ctx, routerFailure(ctx)));
        }
    }

    private ApiError routerFailure(RoutingContext ctx) {
        int status = ctx.statusCode();
        return switch (status) {
            case 413 -> bodyLimit.tooLarge().toError();
            case 404 -> ApiError.of(404, "Cannot " + ctx.request().method().name() + " " + ctx.request().path());
            case 500 -> ErrorMappers.internalError(ctx.failure());
            default -> ApiError.of(status, ApiError.reasonPhrase(status));
        };
    }

    /**
     * Authentication before any other check looks at the request (issue 24: an upload without a key answered 415,
     * an oversized one 413). The path is normalised as the router will see it ({@code /note/../internal/x} is
     * internal).
     */
    private void authenticateFirst(RoutingContext ctx) {
        Optional<ApiError> refused = authentication.firstCheck(path(ctx), ctx.request().getHeader(HttpHeaders.AUTHORIZATION));
        if (refused.isPresent()) {
            refuse(ctx, refused.get());
            return;
        }
        ctx.next();
    }

    private static String path(RoutingContext ctx) {
        try {
            String normalised = ctx.normalizedPath();
            return normalised == null ? "" : normalised;
        } catch (RuntimeException malformed) {
            // Escapes the router cannot decode: the raw path, which takes a key like any public one.
            String raw = ctx.request().path();
            return raw == null ? "" : raw;
        }
    }

    /** A check that passes the request on, or answers its refusal and closes the connection. */
    private static Handler<RoutingContext> step(Consumer<RoutingContext> check) {
        return ctx -> {
            try {
                check.accept(ctx);
            } catch (ApiException refused) {
                refuse(ctx, refused.toError());
                return;
            }
            ctx.next();
        };
    }

    /**
     * Answers a request whose body was not read to its end, and closes the connection (the rest of the body may
     * still be on its way, and would be taken for the next request). The unread body is drained for a moment
     * first: closing a socket with unread bytes resets it, and the client may then lose the answer. A request that
     * has no body keeps its connection, as after any other answer: a wrong key on a GET then costs no new
     * connection (it did, and made a 401 cost three health checks under load: BENCHMARKS.md, 2026-11-26).
     */
    static void refuse(RoutingContext ctx, ApiError error) {
        if (ctx.response().ended() || ctx.response().headWritten()) {
            ctx.request().connection().close();
            return;
        }
        if (bodiless(ctx.request())) {
            answer(ctx, error);
            // The request's end may wait in its paused buffer; the connection takes its next request after it.
            ctx.request().resume();
            return;
        }
        ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
        ctx.response()
                .setStatusCode(error.statusCode())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Json.encode(error))
                .onComplete(written -> drainThenClose(ctx));
    }

    /** An HTTP/1.x request with neither a length nor a chunked body has none (RFC 9112, 6.3). */
    private static boolean bodiless(HttpServerRequest request) {
        if (request.isEnded()) {
            return true;
        }
        if (request.version() != HttpVersion.HTTP_1_1 && request.version() != HttpVersion.HTTP_1_0) {
            return false;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null
                && (length == null || length.strip().equals("0"));
    }

    private static void drainThenClose(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded()) {
            request.connection().close();
            return;
        }
        long timer = ctx.vertx().setTimer(DRAIN_MILLIS, fired -> request.connection().close());
        request.handler(ignored -> { });
        request.exceptionHandler(ignored -> ctx.vertx().cancelTimer(timer));
        request.endHandler(end -> {
            ctx.vertx().cancelTimer(timer);
            request.connection().close();
        });
        request.resume();
    }

    static void answer(RoutingContext ctx, ApiError error) {
        if (ctx.response().ended() || ctx.response().headWritten()) {
            return;
        }
        ctx.response()
                .setStatusCode(error.statusCode())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(Json.encode(error));
    }
}
