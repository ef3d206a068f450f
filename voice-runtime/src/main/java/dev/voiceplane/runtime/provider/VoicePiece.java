package dev.voiceplane.runtime.provider;

import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * One text piece that a voice speaking over a WebSocket (Cartesia's contexts, Deepgram's Aura) has asked its provider
 * for: its listener, its deadlines and its end, once. The first audio must come within {@code firstAudioMillis} of
 * {@link #start}, and then no silence longer than {@code silenceMillis} until the piece is done; past either, the voice
 * hears {@code timedOut} and decides what failed (the piece, or the whole socket). Over once: done, failed, or cancelled
 * by the call, after which its listener hears nothing. Runs on the call's context, like the socket's handlers.
 */
public final class VoicePiece {

    private final Vertx vertx;
    private final String provider;
    private final TextToSpeech.Listener listener;
    private final long firstAudioMillis;
    private final long silenceMillis;
    private final Consumer<ProviderError> timedOut;
    private long timer = -1;
    private long startedAt;
    private long lastAudioAt;
    private boolean heard;
    private boolean over;

    public VoicePiece(Vertx vertx, String provider, TextToSpeech.Listener listener, long firstAudioMillis,
            long silenceMillis, Consumer<ProviderError> timedOut) {
        this.vertx = vertx;
        this.provider = provider;
        this.listener = listener;
        this.firstAudioMillis = firstAudioMillis;
        this.silenceMillis = silenceMillis;
        this.timedOut = timedOut;
    }

    /** The provider was asked for this piece: its first audio is due within {@code firstAudioMillis}. */
    public void start() {
        if (over || timer >= 0) {
            return;
        }
        startedAt = System.nanoTime();
        arm(firstAudioMillis);
    }

    private void arm(long millis) {
        timer = vertx.setTimer(Math.max(1, millis), id -> {
            timer = -1;
            check();
        });
    }

    private void check() {
        if (over) {
            return;
        }
        long now = System.nanoTime();
        if (!heard) {
            long waited = (now - startedAt) / 1_000_000;
            if (waited >= firstAudioMillis) {
                timedOut.accept(ProviderError.timeout(provider, "no audio within " + firstAudioMillis + " ms"));
            } else {
                arm(firstAudioMillis - waited);
            }
            return;
        }
        long silent = (now - lastAudioAt) / 1_000_000;
        if (silent >= silenceMillis) {
            timedOut.accept(ProviderError.timeout(provider, "went silent for " + silenceMillis + " ms mid-speech"));
        } else {
            arm(silenceMillis - silent);
        }
    }

    /** Whether it is over (done, failed or cancelled): nothing more reaches its listener. */
    public boolean over() {
        return over;
    }

    /** Audio of this piece, in the call's format. */
    public void audio(byte[] audio) {
        if (over || audio.length == 0) {
            return;
        }
        heard = true;
        lastAudioAt = System.nanoTime();
        listener.audio(audio);
    }

    public void done() {
        if (end()) {
            listener.done();
        }
    }

    public void fail(ProviderError error) {
        if (end()) {
            listener.failed(error);
        }
    }

    /** The call no longer wants it; true if it was still live (the provider may still be speaking it). */
    public boolean cancel() {
        return end();
    }

    private boolean end() {
        if (over) {
            return false;
        }
        over = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
        return true;
    }
}
