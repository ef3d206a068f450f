package dev.voiceplane.runtime.recording;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.media.MediaChannel;
import io.vertx.core.Vertx;
import java.util.Map;

/**
 * {@code backgroundSound: office}: the ambience loop mixed under the assistant's audio, and sent on its own while the
 * assistant is silent, so the caller hears the office throughout. A timer every {@value #TICK_MILLIS} ms keeps the far
 * end holding {@value #AHEAD_MILLIS} ms of it ahead of playback when the assistant sends nothing; the assistant's
 * frames queue behind at most that much (so its first audio plays up to that much later). A clear drops it with the
 * assistant's audio. Used on the call's context.
 */
final class BackgroundChannel implements MediaChannel {

    static final long TICK_MILLIS = 20;
    static final long AHEAD_MILLIS = 40;
    private static final long FRAME_NANOS = 20_000_000L;

    private final MediaChannel channel;
    private final Vertx vertx;
    private final AudioFormat format;
    private final short[] loop;
    private final int frameSamples;
    private int position;
    private long playheadNanos;
    private long timer = -1;
    private boolean stopped;

    BackgroundChannel(MediaChannel channel, Vertx vertx, short[] loop) {
        this.channel = channel;
        this.vertx = vertx;
        this.format = channel.format();
        this.loop = loop;
        this.frameSamples = format.sampleRate() / 50;
    }

    /** The call runs: the ambience starts. */
    void start() {
        if (!stopped && timer < 0) {
            timer = vertx.setPeriodic(TICK_MILLIS, id -> fill());
        }
    }

    private void fill() {
        long now = System.nanoTime();
        while (!stopped && playheadNanos - now < AHEAD_MILLIS * 1_000_000L) {
            channel.sendAudio(format.fromPcm(ambience(new short[frameSamples]), format.sampleRate()));
            playheadNanos = Math.max(playheadNanos, now) + FRAME_NANOS;
        }
    }

    /** Adds the next stretch of the loop to {@code samples}. */
    private short[] ambience(short[] samples) {
        for (int i = 0; i < samples.length; i++) {
            int mixed = samples[i] + loop[position];
            samples[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, mixed));
            position = (position + 1) % loop.length;
        }
        return samples;
    }

    @Override
    public AudioFormat format() {
        return format;
    }

    @Override
    public void sendAudio(byte[] frame) {
        if (stopped) {
            channel.sendAudio(frame);
            return;
        }
        channel.sendAudio(format.fromPcm(ambience(format.toPcm(frame)), format.sampleRate()));
        playheadNanos = Math.max(playheadNanos, System.nanoTime()) + FRAME_NANOS;
    }

    @Override
    public void sendMark(String name) {
        channel.sendMark(name);
    }

    @Override
    public void clear() {
        channel.clear();
        playheadNanos = System.nanoTime();
    }

    @Override
    public void sendMessage(Map<String, Object> message) {
        channel.sendMessage(message);
    }

    @Override
    public void close(String reason) {
        stop();
        channel.close(reason);
    }

    /** No more ambience (the call ended). */
    void stop() {
        if (!stopped) {
            stopped = true;
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
        }
    }
}
