package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiError;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * Answers, in the error shape, what never reaches a JAX-RS resource: unknown routes and bodies over the
 * size limit (rejected by the HTTP layer before any resource runs).
 */
@Singleton
public class FallbackRoutes {

    void install(@Observes Router router) {
        router.route().last().handler(ctx -> write(ctx, ApiError.of(404,
                "Cannot " + ctx.request().method().name() + " " + ctx.request().path())));
        router.errorHandler(413, ctx -> write(ctx, ApiError.of(413, "request body is too large")));
    }

    static void write(RoutingContext ctx, ApiError error) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response()
                .setStatusCode(error.statusCode())
                .putHeader("Content-Type", "application/json")
                .end(Json.encode(error));
    }
}
