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
 * What the text-to-speech fakes ({@link FakeElevenLabs}, {@link FakeOpenAiTts}, {@link FakeAzureSpeech},
 * {@link FakeRime}, {@link FakeLmnt}) share: a server on a random loopback port with its own Vert.x, the failure
 * modes, and the answer's audio streamed in chunks of {@link #chunkMs} after {@link #ttfbMs}, at
 * {@link #realTimeFactor} times real time (or held open part way, {@link #holdAfterMs}). Each fake reads its
 * provider's request and answers its errors in its provider's shape.
 */
public abstract class FakeTtsServer<S extends FakeTtsServer<S>> implements AutoCloseable {

    /**
     * How every request fails: its provider's refusal of the key, a 5xx, headers then nothing, a 2xx with JSON where
     * audio was asked for; {@code RATE_LIMITED} (429) is answered by the fakes that name it in their description.
     */
    public enum Failure {
        NONE, UNAUTHORIZED, RATE_LIMITED, SERVER_ERROR, HANG, NOT_AUDIO
    }

    protected final Vertx vertx = Vertx.vertx();
    protected final String apiKey;
    private final String name;
    private final HttpServer server;
    private volatile long ttfbMs;
    private volatile double realTimeFactor;
    private volatile int chunkMs = 100;
    private volatile Failure failure = Failure.NONE;
    private volatile int holdAfterMs;
    private volatile java.util.function.Predicate<String> held = text -> false;
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

    /**
     * Answers to the texts {@code held} accepts stop after {@code millis} of audio and stay open until the client
     * goes (a speech the client must cancel, e.g. on a barge-in); {@code millis} 0 holds none.
     */
    public S holdAfterMs(int millis, java.util.function.Predicate<String> held) {
        this.held = held;
        this.holdAfterMs = millis;
        return self();
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
        speak(response, null, speech, bytesPerMs, failed);
    }

    /** {@link #speak(HttpServerResponse, Callable, int, Consumer)} of {@code text}, held as {@link #holdAfterMs} says. */
    protected void speak(HttpServerResponse response, String text, Callable<byte[]> speech, int bytesPerMs,
            Consumer<String> failed) {
        int holdAfter = text != null && holdAfterMs > 0 && held.test(text) ? holdAfterMs * bytesPerMs : -1;
        long started = System.nanoTime();
        vertx.<byte[]>executeBlocking(speech).onComplete(made -> {
            if (made.failed()) {
                failed.accept(made.cause().getMessage());
                return;
            }
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            byte[] audio = made.result();
            vertx.setTimer(Math.max(1, ttfbMs - waited), t -> send(response,
                    holdAfter >= 0 && holdAfter < audio.length ? java.util.Arrays.copyOf(audio, holdAfter) : audio,
                    bytesPerMs * chunkMs, holdAfter >= 0));
        });
    }

    /** Streams {@code audio}, then ends the answer, or leaves it open when {@code hold}. */
    private void send(HttpServerResponse response, byte[] audio, int chunkBytes, boolean hold) {
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
        Runnable end = () -> {
            if (!hold) {
                response.end();
            }
        };
        if (factor <= 0) {
            while (from[0] < audio.length) {
                next.run();
            }
            end.run();
            return;
        }
        next.run();
        if (from[0] >= audio.length) {
            end.run();
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
                end.run();
            }
        });
    }
}
