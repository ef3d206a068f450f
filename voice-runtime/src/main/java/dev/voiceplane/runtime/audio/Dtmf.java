package dev.voiceplane.runtime.audio;

/**
 * Keypad tones (DTMF, ITU-T Q.23): each key is the sum of one low-group and one high-group sine, played for
 * {@link #TONE_MILLIS} with {@link #GAP_MILLIS} of silence after it (Q.24 asks receivers to take tones of 40 ms and
 * pauses of 40 ms, so these leave a margin for codecs and jitter).
 */
public final class Dtmf {

    public static final String KEYS = "123A456B789C*0#D";
    public static final int[] LOW = {697, 770, 852, 941};
    public static final int[] HIGH = {1209, 1336, 1477, 1633};
    public static final int TONE_MILLIS = 120;
    public static final int GAP_MILLIS = 80;
    /** Each sine's peak: the two together stay well under full scale (about -9 dBFS each). */
    private static final double AMPLITUDE = 0.35 * 32767;

    private Dtmf() {
    }

    /** Whether every character of {@code digits} is a key (0-9, *, #, A-D; case ignored), and there is one. */
    public static boolean valid(String digits) {
        if (digits == null || digits.isEmpty()) {
            return false;
        }
        for (char key : digits.toCharArray()) {
            if (KEYS.indexOf(Character.toUpperCase(key)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The tones of {@code digits} in {@code format}, each followed by its gap. */
    public static byte[] tones(String digits, AudioFormat format) {
        int rate = format.sampleRate();
        int tone = rate * TONE_MILLIS / 1000;
        int step = tone + rate * GAP_MILLIS / 1000;
        short[] samples = new short[step * digits.length()];
        for (int d = 0; d < digits.length(); d++) {
            int key = KEYS.indexOf(Character.toUpperCase(digits.charAt(d)));
            if (key < 0) {
                throw new IllegalArgumentException("not a keypad key: " + digits.charAt(d));
            }
            double low = 2 * Math.PI * LOW[key / 4] / rate;
            double high = 2 * Math.PI * HIGH[key % 4] / rate;
            for (int i = 0; i < tone; i++) {
                samples[d * step + i] = (short) Math.round(AMPLITUDE * (Math.sin(low * i) + Math.sin(high * i)));
            }
        }
        return format.fromPcm(samples, rate);
    }
}
