package dev.voiceplane.runtime.recording;

import java.util.SplittableRandom;

/**
 * The {@code office} background sound, made in memory when first needed rather than shipped (no audio file is
 * committed or downloaded): {@value #SECONDS} s of a quiet office, looped — a low room tone (brown noise), a murmur of distant
 * voices (speech-band noise shaped by syllable and phrase envelopes, three talkers) and now and then a burst of
 * keyboard clicks. Fixed seed, so every call and every run has the same loop; its end is cross-faded into its start
 * so the loop has no seam. About {@value #TARGET_DBFS} dBFS overall: under a voice at about −20 dBFS, as an office
 * heard through a phone is.
 */
public final class OfficeAmbience {

    static final int SECONDS = 12;
    static final double TARGET_DBFS = -42;
    private static final double FADE_SECONDS = 0.5;

    private OfficeAmbience() {
    }

    /** The loop at {@code rate} samples per second. */
    public static short[] loop(int rate) {
        int length = rate * SECONDS;
        int fade = (int) (rate * FADE_SECONDS);
        double[] sound = new double[length + fade];
        SplittableRandom random = new SplittableRandom(20261126L);
        roomTone(sound, random);
        for (int talker = 0; talker < 3; talker++) {
            murmur(sound, rate, random, 0.6 - talker * 0.15);
        }
        keyboard(sound, rate, random);
        // The tail fades into the head, so the loop's end leads into its start without a click.
        for (int i = 0; i < fade; i++) {
            double w = (double) i / fade;
            sound[i] = sound[i] * w + sound[length + i] * (1 - w);
        }
        double sum = 0;
        for (int i = 0; i < length; i++) {
            sum += sound[i] * sound[i];
        }
        double rms = Math.sqrt(sum / length);
        double gain = rms == 0 ? 0 : Math.pow(10, TARGET_DBFS / 20) * 32768 / rms;
        short[] loop = new short[length];
        for (int i = 0; i < length; i++) {
            loop[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, Math.round(sound[i] * gain)));
        }
        return loop;
    }

    private static void roomTone(double[] sound, SplittableRandom random) {
        double brown = 0;
        for (int i = 0; i < sound.length; i++) {
            brown = 0.995 * brown + 0.02 * (random.nextDouble() * 2 - 1);
            sound[i] += brown * 0.8;
        }
    }

    /** Speech-band noise (a band-pass of two one-pole filters) under syllable (3–6 Hz) and phrase envelopes. */
    private static void murmur(double[] sound, int rate, SplittableRandom random, double level) {
        double low = 0;
        double lower = 0;
        double lowCut = Math.exp(-2 * Math.PI * 3000.0 / rate);
        double highCut = Math.exp(-2 * Math.PI * 300.0 / rate);
        int i = (int) (random.nextDouble() * rate);
        while (i < sound.length) {
            int phrase = (int) (rate * (1 + random.nextDouble() * 2));
            double syllable = 3 + random.nextDouble() * 3;
            double phase = random.nextDouble();
            for (int k = 0; k < phrase && i + k < sound.length; k++) {
                double white = random.nextDouble() * 2 - 1;
                low = lowCut * low + (1 - lowCut) * white;
                lower = highCut * lower + (1 - highCut) * low;
                double band = low - lower;
                double envelope = Math.max(0, Math.sin(2 * Math.PI * (syllable * k / rate + phase)));
                double edge = Math.min(1, Math.min(k, phrase - k) / (0.1 * rate));
                sound[i + k] += band * envelope * edge * level;
            }
            i += phrase + (int) (rate * (0.5 + random.nextDouble() * 1.5));
        }
    }

    /** Clusters of short decaying clicks, now and then. */
    private static void keyboard(double[] sound, int rate, SplittableRandom random) {
        int i = (int) (rate * (1 + random.nextDouble() * 3));
        while (i < sound.length) {
            int keys = 3 + random.nextInt(10);
            int at = i;
            for (int key = 0; key < keys; key++) {
                int click = rate / 200;
                for (int k = 0; k < click && at + k < sound.length; k++) {
                    sound[at + k] += (random.nextDouble() * 2 - 1) * 0.25 * Math.exp(-6.0 * k / click);
                }
                at += (int) (rate * (0.08 + random.nextDouble() * 0.15));
            }
            i = at + (int) (rate * (2 + random.nextDouble() * 4));
        }
    }
}
