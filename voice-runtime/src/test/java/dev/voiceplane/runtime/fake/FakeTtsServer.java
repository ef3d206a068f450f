package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * What the text-to-speech fakes ({@link FakeElevenLabs}, {@link FakeOpenAiTts}) share: a server on a random loopback
 * port with its own Vert.x, the failure modes, and the answer's audio streamed in chunks of {@link #chunkMs} after
 * {@link #ttfbMs}, at {@link #realTimeFactor} times real time. Each fake reads its provider's request and answers its
 * errors in its provider's shape.
 */
public abstract class FakeTtsServer<S extends FakeTtsServer<S>> implements AutoCloseable {

    public enum Failure {
        NONE, UNAUTHORIZED, SERVER_ERROR, HANG, NOT_AUDIO
    }

    protected final Vertx vertx = Vertx.vertx();
    protected final String apiKey;
    private final String name;
    private final HttpServer server;
    private volatile long ttfbMs;
    private volatile double realTimeFactor;
    private volatile int chunkMs = 100;
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger disconnects = new AtomicInteger();

    protected FakeTtsServer(String apiKey, String name) {
        this.apiKey = apiKey;
        this.name = name;
        this.server = LoopbackServer.start(vertx, this::handle, name);
    }

    /** Answers one request in the provider's protocol. */
    protected abstract void handle(HttpServerRequest request);

    @SuppressWarnings("unchecked")
    private S self() {
        return (S) this;
    }

    public int port() {
        return server.actualPort();
    }

    /** Wall time before the first audio byte. */
    public S ttfbMs(long millis) {
        this.ttfbMs = millis;
        return self();
    }

    /** Audio is sent this many times faster than real time (1 = real time); 0 (default) = as fast as possible. */
    public S realTimeFactor(double factor) {
        this.realTimeFactor = factor;
        return self();
    }

    /** Audio per chunk (default 100 ms). */
    public S chunkMs(int millis) {
        this.chunkMs = millis;
        return self();
    }

    /** How every request fails (NONE: it does not). */
    public S failure(Failure failure) {
        this.failure = failure;
        return self();
    }

    protected Failure failure() {
        return failure;
    }

    /** Responses the client closed before their end (e.g. the runtime cancelled on barge-in). */
    public int disconnects() {
        return disconnects.get();
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, name);
    }

    /**
     * Makes the audio off the event loop ({@code speech}: espeak-ng is slow), then streams it after what is left of
     * {@link #ttfbMs}, {@code bytesPerMs} of audio to a millisecond; a fixture that cannot be made goes to
     * {@code failed}.
     */
    protected void speak(HttpServerResponse response, Callable<byte[]> speech, int bytesPerMs, Consumer<String> failed) {
        long started = System.nanoTime();
        vertx.<byte[]>executeBlocking(speech).onComplete(made -> {
            if (made.failed()) {
                failed.accept(made.cause().getMessage());
                return;
            }
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            vertx.setTimer(Math.max(1, ttfbMs - waited), t -> send(response, made.result(), bytesPerMs * chunkMs));
        });
    }

    private void send(HttpServerResponse response, byte[] audio, int chunkBytes) {
        response.closeHandler(v -> {
            if (!response.ended()) {
                disconnects.incrementAndGet();
            }
        });
        double factor = realTimeFactor;
        int[] from = { 0 };
        Runnable next = () -> {
            response.write(Buffer.buffer(java.util.Arrays.copyOfRange(audio, from[0],
                    Math.min(audio.length, from[0] + chunkBytes))));
            from[0] += chunkBytes;
        };
        if (factor <= 0) {
            while (from[0] < audio.length) {
                next.run();
            }
            response.end();
            return;
        }
        next.run();
        if (from[0] >= audio.length) {
            response.end();
            return;
        }
        vertx.setPeriodic(Math.max(1, Math.round(chunkMs / factor)), tick -> {
            if (response.closed()) {
                vertx.cancelTimer(tick);
                return;
            }
            next.run();
            if (from[0] >= audio.length) {
                vertx.cancelTimer(tick);
                response.end();
            }
        });
    }
}
