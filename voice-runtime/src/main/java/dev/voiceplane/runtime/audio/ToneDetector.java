package dev.voiceplane.runtime.audio;

/**
 * Finds a voicemail beep: one steady tone between 400 and 2000 Hz for at least 150 ms. Each 20 ms block is measured
 * with the Goertzel algorithm at every 25 Hz of that band; a block is tonal when one frequency carries at least 70 %
 * of its energy (a sine's power at its own frequency is its whole energy; speech spreads over harmonics and moves its
 * pitch) above −45 dBFS. Blocks that are tonal at the same frequency (±50 Hz) back to back make the tone. About
 * 65 × 160 multiply-adds per 20 ms at 8 kHz: nothing next to the call's other work, and it runs only while a call
 * waits for a beep.
 */
public final class ToneDetector {

    static final int LOW_HZ = 400;
    static final int HIGH_HZ = 2000;
    static final int STEP_HZ = 25;
    static final double PURITY = 0.7;
    static final double MIN_RMS = 32768 * Math.pow(10, -45 / 20.0);
    static final int MIN_MILLIS = 150;

    private final int sampleRate;
    private final int block;
    private final double[] coefficients;
    private final short[] pending;
    private int filled;
    private int runMillis;
    private double runHz = -1;

    public ToneDetector(int sampleRate) {
        this.sampleRate = sampleRate;
        this.block = sampleRate / 50;
        this.pending = new short[block];
        this.coefficients = new double[(HIGH_HZ - LOW_HZ) / STEP_HZ + 1];
        for (int i = 0; i < coefficients.length; i++) {
            coefficients[i] = 2 * Math.cos(2 * Math.PI * (LOW_HZ + i * STEP_HZ) / sampleRate);
        }
    }

    /** Feeds audio; whether a steady tone of at least 150 ms has been heard by the end of it. */
    public boolean audio(short[] samples) {
        boolean heard = false;
        for (short sample : samples) {
            pending[filled++] = sample;
            if (filled == block) {
                filled = 0;
                heard |= block();
            }
        }
        return heard;
    }

    private boolean block() {
        double energy = 0;
        for (short sample : pending) {
            energy += (double) sample * sample;
        }
        double hz = -1;
        if (Math.sqrt(energy / block) >= MIN_RMS) {
            double best = 0;
            int bestIndex = -1;
            for (int i = 0; i < coefficients.length; i++) {
                double power = goertzel(coefficients[i]);
                if (power > best) {
                    best = power;
                    bestIndex = i;
                }
            }
            double purity = 2 * best / ((double) block * energy);
            if (purity >= PURITY) {
                hz = LOW_HZ + bestIndex * STEP_HZ;
            }
        }
        if (hz < 0) {
            runMillis = 0;
            runHz = -1;
            return false;
        }
        if (runHz >= 0 && Math.abs(hz - runHz) <= 50) {
            runMillis += 20;
        } else {
            runMillis = 20;
            runHz = hz;
        }
        return runMillis >= MIN_MILLIS;
    }

    private double goertzel(double coefficient) {
        double previous = 0;
        double beforePrevious = 0;
        for (short sample : pending) {
            double current = sample + coefficient * previous - beforePrevious;
            beforePrevious = previous;
            previous = current;
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
    }

    public int sampleRate() {
        return sampleRate;
    }
}
