package dev.voiceplane.runtime.fake;

import dev.voiceplane.runtime.audio.AudioFormat;

/**
 * Hears keypad tones the way a phone menu does: Goertzel filters at the eight DTMF frequencies over 20 ms windows; a
 * window is a key when its strongest low and high tones carry most of its energy (speech and silence do not), and
 * a key held over several windows counts once (a new key needs a window without a key between).
 */
public final class DtmfDecoder {

    private static final String KEYS = "123A456B789C*0#D";
    private static final int[] LOW = {697, 770, 852, 941};
    private static final int[] HIGH = {1209, 1336, 1477, 1633};

    private DtmfDecoder() {
    }

    /** The keys heard in {@code audio} (in {@code format}), in order. */
    public static String decode(byte[] audio, AudioFormat format) {
        short[] samples = format.toPcm(audio);
        int rate = format.sampleRate();
        int window = rate / 50;
        StringBuilder keys = new StringBuilder();
        char last = 0;
        for (int from = 0; from + window <= samples.length; from += window) {
            char key = key(samples, from, window, rate);
            if (key != 0 && key != last) {
                keys.append(key);
            }
            last = key;
        }
        return keys.toString();
    }

    private static char key(short[] samples, int from, int length, int rate) {
        double energy = 0;
        for (int i = from; i < from + length; i++) {
            energy += (double) samples[i] * samples[i];
        }
        if (energy / length < 100 * 100) {
            return 0; // quieter than about -50 dBFS: no tone
        }
        int low = strongest(LOW, samples, from, length, rate);
        int high = strongest(HIGH, samples, from, length, rate);
        double lowShare = power(LOW[low], samples, from, length, rate) * 2 / (length * energy);
        double highShare = power(HIGH[high], samples, from, length, rate) * 2 / (length * energy);
        // A pure pair of tones gives shares of about 0.5 each; speech spreads its energy over many frequencies.
        return lowShare > 0.3 && highShare > 0.3 ? KEYS.charAt(low * 4 + high) : 0;
    }

    private static int strongest(int[] frequencies, short[] samples, int from, int length, int rate) {
        int best = 0;
        double bestPower = -1;
        for (int i = 0; i < frequencies.length; i++) {
            double power = power(frequencies[i], samples, from, length, rate);
            if (power > bestPower) {
                bestPower = power;
                best = i;
            }
        }
        return best;
    }

    /** |X(f)|² over the window (Goertzel). */
    static double power(double frequency, short[] samples, int from, int length, int rate) {
        double coefficient = 2 * Math.cos(2 * Math.PI * frequency / rate);
        double previous = 0;
        double beforePrevious = 0;
        for (int i = from; i < from + length; i++) {
            double current = samples[i] + coefficient * previous - beforePrevious;
            beforePrevious = previous;
            previous = current;
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
    }
}
