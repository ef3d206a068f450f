package dev.voiceplane.runtime.provider;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * HTTP clients to the providers, one per event loop, each used only from its own event loop's thread; so a pooled
 * connection lives on the event loop of every call that uses it.
 *
 * <p>Why: a call cancels its model's or voice's answer (barge-in, hang-up) by resetting the request. Vert.x 4.5 resets
 * an HTTP/1.1 request on its connection's event loop and closes the connection when the answer has ended by then; if
 * the connection was meanwhile handed back to the pool and to another call, that call's answer fails with "Connection
 * was closed" (eclipse-vertx/vert.x#6294: its fix was merged and then reverted, so the 4.5 line still has the race).
 * When the call and the connection share a thread, the end of the answer and the reset cannot interleave: either the
 * answer ended first, and the call's speech is over (nothing is reset), or the reset comes first, and closes a
 * connection nobody else holds. Each event loop keeps its own keep-alive connections, which costs a connection per
 * event loop and provider host at most.
 */
public final class EventLoopHttpClients implements AutoCloseable {

    private final Vertx vertx;
    private final HttpClientOptions options;
    private final PoolOptions pool;
    private final ConcurrentMap<Thread, HttpClient> byEventLoop = new ConcurrentHashMap<>();
    private final HttpClient offEventLoop;

    public EventLoopHttpClients(Vertx vertx, HttpClientOptions options, PoolOptions pool) {
        this.vertx = vertx;
        this.options = new HttpClientOptions(options);
        this.pool = new PoolOptions(pool);
        this.offEventLoop = vertx.createHttpClient(this.options, this.pool);
    }

    /**
     * The client of the calling event loop. Off an event loop (a worker, a test's thread) a shared client, whose
     * requests must then not be reset.
     */
    public HttpClient current() {
        if (!Context.isOnEventLoopThread()) {
            return offEventLoop;
        }
        return byEventLoop.computeIfAbsent(Thread.currentThread(), loop -> vertx.createHttpClient(options, pool));
    }

    @Override
    public void close() {
        byEventLoop.values().forEach(HttpClient::close);
        offEventLoop.close();
    }
}
