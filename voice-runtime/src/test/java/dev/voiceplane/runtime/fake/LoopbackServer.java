package dev.voiceplane.runtime.fake;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.TimeUnit;

/** How the provider fakes start and stop: a server on a random loopback port, on a Vert.x of its own. */
final class LoopbackServer {

    private LoopbackServer() {
    }

    /** Listens with {@code handler}, or closes {@code vertx} and fails saying which fake did not start. */
    static HttpServer start(Vertx vertx, Handler<HttpServerRequest> handler, String name) {
        try {
            return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                    .requestHandler(handler)
                    .listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("fake " + name + " did not start", e);
        }
    }

    /** Closes {@code vertx}, and with it the server, within 10 s. */
    static void stop(Vertx vertx, String name) {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("fake " + name + " did not stop", e);
        }
    }
}
