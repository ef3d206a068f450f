package dev.voiceplane.runtime.audio;

/**
 * Voice activity of one caller, from the energy of 20 ms frames with hysteresis: speech starts after
 * {@code startMillis} of frames above the threshold, and stops after {@code stopMillis} below it. The stop is the
 * end-of-turn signal the conversation acts on (with the transcriber's final words); the time of the last voiced
 * frame is kept, since that is when the caller really stopped.
 */
public final class VoiceActivity {

    /** Thresholds: level in dBFS, and how long a level must hold to start or stop speech. */
    public record Settings(double thresholdDbfs, int startMillis, int stopMillis) {
    }

    public enum Change { NONE, STARTED, STOPPED }

    private final Settings settings;
    private boolean speaking;
    private int voicedMillis;
    private int quietMillis;
    private long lastVoicedAtNanos;

    public VoiceActivity(Settings settings) {
        this.settings = settings;
    }

    /** Feeds one frame heard at {@code nowNanos}; answers whether speech started or stopped with it. */
    public Change frame(short[] samples, int sampleRate, long nowNanos) {
        int millis = Math.max(1, samples.length * 1000 / sampleRate);
        boolean voiced = Pcm16.dbfs(samples) >= settings.thresholdDbfs();
        if (voiced) {
            lastVoicedAtNanos = nowNanos;
            voicedMillis += millis;
            quietMillis = 0;
            if (!speaking && voicedMillis >= settings.startMillis()) {
                speaking = true;
                return Change.STARTED;
            }
        } else {
            quietMillis += millis;
            if (!speaking) {
                voicedMillis = 0;
            }
            if (speaking && quietMillis >= settings.stopMillis()) {
                speaking = false;
                voicedMillis = 0;
                return Change.STOPPED;
            }
        }
        return Change.NONE;
    }

    public boolean speaking() {
        return speaking;
    }

    /** When the last frame above the threshold was heard (System.nanoTime), 0 before any. */
    public long lastVoicedAtNanos() {
        return lastVoicedAtNanos;
    }
}
