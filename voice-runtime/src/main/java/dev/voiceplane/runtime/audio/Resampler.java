package dev.voiceplane.runtime.audio;

/**
 * Sample-rate conversion between the rates providers and transports use (8, 16 and 24 kHz): linear interpolation
 * after a short moving-average low-pass when the rate goes down. Speech-band quality, not hi-fi: what a phone
 * line carries. Stateless per chunk, which is good enough at chunk sizes of tens of milliseconds.
 */
public final class Resampler {

    private Resampler() {
    }

    public static short[] convert(short[] in, int fromRate, int toRate) {
        if (fromRate == toRate || in.length == 0) {
            return in;
        }
        short[] source = in;
        if (toRate < fromRate) {
            int window = (int) Math.ceil((double) fromRate / toRate);
            source = lowPass(in, window);
        }
        int outLength = (int) ((long) in.length * toRate / fromRate);
        short[] out = new short[outLength];
        double step = (double) fromRate / toRate;
        for (int i = 0; i < outLength; i++) {
            double position = i * step;
            int index = (int) position;
            double fraction = position - index;
            int a = source[Math.min(index, source.length - 1)];
            int b = source[Math.min(index + 1, source.length - 1)];
            out[i] = (short) Math.round(a + (b - a) * fraction);
        }
        return out;
    }

    private static short[] lowPass(short[] in, int window) {
        short[] out = new short[in.length];
        long sum = 0;
        for (int i = 0; i < in.length; i++) {
            sum += in[i];
            if (i >= window) {
                sum -= in[i - window];
            }
            out[i] = (short) (sum / Math.min(i + 1, window));
        }
        return out;
    }
}
