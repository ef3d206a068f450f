package dev.voiceplane.runtime.recording;

/**
 * The call as heard, on one clock (sample 0 = the recording's start, at the call's rate): the caller's track and
 * the assistant's, each in a ring of {@value #RING_SECONDS} s, read out in order once final. The caller's audio is
 * laid end to end as it arrives (a carrier sends a frame every 20 ms, silence included) and pulled back onto the
 * clock when it drifts by more than {@value #SLACK_MILLIS} ms (a gap in the stream, or a burst of frames held back at
 * the start). The assistant's audio is placed where it plays: a frame sent with others still ahead of it plays after
 * them, and a barge-in's clear removes what had not played by then. Audio before {@link #final} never changes, so it
 * is read out (and goes to file-service) while the call goes on; nothing of the call is kept beyond the ring.
 * Used on the call's context only.
 */
final class TwoTracks {

    static final int RING_SECONDS = 8;
    static final int SLACK_MILLIS = 100;

    private final int rate;
    private final long startNanos;
    private final short[] caller;
    private final short[] assistant;
    private final int slack;
    private long callerAt;
    private long playheadNanos;
    private long readTo;

    TwoTracks(int rate, long startNanos) {
        this.rate = rate;
        this.startNanos = startNanos;
        this.caller = new short[rate * RING_SECONDS];
        this.assistant = new short[rate * RING_SECONDS];
        this.slack = rate * SLACK_MILLIS / 1000;
        this.playheadNanos = startNanos;
    }

    int rate() {
        return rate;
    }

    long sampleAt(long nanos) {
        return Math.max(0, (nanos - startNanos) * rate / 1_000_000_000L);
    }

    /** Caller audio that arrived at {@code nanos} (it ends about then). */
    void caller(short[] samples, long nanos) {
        long now = sampleAt(nanos);
        long expected = now - samples.length;
        if (callerAt < expected - slack || callerAt > expected + slack) {
            callerAt = Math.max(0, expected);
        }
        write(caller, samples, callerAt);
        callerAt += samples.length;
    }

    /** One frame of the assistant's audio sent at {@code nanos}: it plays after what was sent before it. */
    void assistant(short[] samples, long nanos) {
        playheadNanos = Math.max(playheadNanos, nanos);
        write(assistant, samples, sampleAt(playheadNanos));
        playheadNanos += samples.length * 1_000_000_000L / rate;
    }

    /** The far end dropped what it held at {@code nanos}: nothing of the assistant plays from then on. */
    void cleared(long nanos) {
        long from = Math.max(readTo, sampleAt(nanos));
        long to = sampleAt(playheadNanos);
        for (long i = from; i < to && i < readTo + assistant.length; i++) {
            assistant[(int) (i % assistant.length)] = 0;
        }
        playheadNanos = Math.min(playheadNanos, Math.max(nanos, startNanos));
    }

    /** Audio before this sample is final at {@code nanos}: the caller's slack and nothing queued can change it. */
    long finalAt(long nanos) {
        return Math.max(readTo, sampleAt(nanos) - 2L * slack);
    }

    /** Reads the final audio up to {@code to} (exclusive) into the two outputs, and forgets it. */
    void read(long to, Sink sink) {
        long end = Math.min(to, readTo + caller.length);
        for (long i = readTo; i < end; i++) {
            int slot = (int) (i % caller.length);
            sink.sample(caller[slot], assistant[slot]);
            caller[slot] = 0;
            assistant[slot] = 0;
        }
        readTo = Math.max(readTo, end);
    }

    long readTo() {
        return readTo;
    }

    interface Sink {
        void sample(short caller, short assistant);
    }

    private void write(short[] track, short[] samples, long at) {
        for (int i = 0; i < samples.length; i++) {
            long index = at + i;
            // Before what was read out (late), or beyond the ring (far ahead): dropped, never wrapped onto other audio.
            if (index >= readTo && index < readTo + track.length) {
                track[(int) (index % track.length)] = samples[i];
            }
        }
    }
}
