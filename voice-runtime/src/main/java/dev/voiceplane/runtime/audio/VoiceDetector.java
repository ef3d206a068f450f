package dev.voiceplane.runtime.audio;

import io.vertx.core.Context;

/**
 * One call's voice activity detection. The call feeds it the caller's audio on the call's context; the detector tells
 * the listener, on that same context, when the caller's speech starts and stops (the stop is the end-of-turn signal).
 * Two detectors exist: the energy of 20 ms frames ({@link #energy}, decided at once, in the call) and Silero VAD
 * ({@link SileroVad}, decided on the VAD thread for all calls at once and posted back). docs/voice-runtime.md,
 * "Voice activity".
 */
public interface VoiceDetector {

    /** Caller audio as 16-bit samples at the call's rate, heard at {@code nowNanos} (System.nanoTime). */
    void audio(short[] samples, long nowNanos);

    /** The call ended: the detector's resources are released and the listener is not called any more. */
    void close();

    /** Speech changes, called on the call's context. */
    interface Listener {
        void started();

        /** The speech stopped; {@code speechEndedAtNanos} is when its last voiced audio was heard. */
        void stopped(long speechEndedAtNanos);
    }

    /** Opens one call's detector. */
    @FunctionalInterface
    interface Factory {
        VoiceDetector open(Context context, AudioFormat format, Listener listener);
    }

    /** The energy detector ({@link VoiceActivity}): costs microseconds a frame, decides within the call's event. */
    static Factory energy(VoiceActivity.Settings settings) {
        return (context, format, listener) -> new VoiceDetector() {
            private final VoiceActivity vad = new VoiceActivity(settings);

            @Override
            public void audio(short[] samples, long nowNanos) {
                switch (vad.frame(samples, format.sampleRate(), nowNanos)) {
                    case STARTED -> listener.started();
                    // The last voiced frame was heard when it arrived; its 20 ms of speech ended about then.
                    case STOPPED -> listener.stopped(vad.lastVoicedAtNanos() + 20_000_000L);
                    default -> {
                    }
                }
            }

            @Override
            public void close() {
            }
        };
    }
}
