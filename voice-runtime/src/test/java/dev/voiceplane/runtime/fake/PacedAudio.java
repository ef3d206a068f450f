package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * How the WebSocket voice fakes ({@link FakeCartesia}, {@link FakeDeepgramAura}) send a piece's audio: made off the
 * event loop (espeak-ng is slow), then in chunks of {@code chunkMs} of audio after what is left of {@code ttfbMs}, at
 * {@code realTimeFactor} times real time (0: as fast as possible), until it ends or is stopped. Runs on the calling
 * connection's context.
 */
final class PacedAudio {

    private final Vertx vertx;
    private boolean stopped;
    private long timer = -1;

    private PacedAudio(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Sends {@code speech} to {@code chunk} in pieces of {@code chunkBytes}, then runs {@code end}; a fixture that
     * cannot be made goes to {@code failed}. The answer stops it: nothing more is sent.
     */
    static Runnable send(Vertx vertx, Callable<byte[]> speech, int chunkBytes, long chunkMs, long ttfbMs,
            double realTimeFactor, Consumer<byte[]> chunk, Runnable end, Consumer<String> failed) {
        PacedAudio paced = new PacedAudio(vertx);
        long started = System.nanoTime();
        vertx.<byte[]>executeBlocking(speech).onComplete(made -> {
            if (paced.stopped) {
                return;
            }
            if (made.failed()) {
                failed.accept(String.valueOf(made.cause().getMessage()));
                return;
            }
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            paced.timer = vertx.setTimer(Math.max(1, ttfbMs - waited), id -> paced.next(made.result(), 0, chunkBytes,
                    chunkMs, realTimeFactor, chunk, end));
        });
        return paced::stop;
    }

    private void next(byte[] audio, int from, int chunkBytes, long chunkMs, double factor, Consumer<byte[]> chunk,
            Runnable end) {
        timer = -1;
        int at = from;
        do {
            if (stopped) {
                return;
            }
            if (at < audio.length) {
                chunk.accept(Arrays.copyOfRange(audio, at, Math.min(audio.length, at + chunkBytes)));
                at += chunkBytes;
            }
        } while (factor <= 0 && at < audio.length);
        if (stopped) {
            return;
        }
        if (at >= audio.length) {
            end.run();
            return;
        }
        int resume = at;
        timer = vertx.setTimer(Math.max(1, Math.round(chunkMs / factor)),
                id -> next(audio, resume, chunkBytes, chunkMs, factor, chunk, end));
    }

    private void stop() {
        stopped = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
