package dev.voiceplane.runtime.audio;

/** Signed 16-bit little-endian PCM, the web calls' codec and what the VAD reads. */
public final class Pcm16 {

    private Pcm16() {
    }

    public static short[] samples(byte[] bytes, int offset, int length) {
        short[] samples = new short[length / 2];
        for (int i = 0; i < samples.length; i++) {
            int at = offset + 2 * i;
            samples[i] = (short) ((bytes[at] & 0xFF) | (bytes[at + 1] << 8));
        }
        return samples;
    }

    public static short[] samples(byte[] bytes) {
        return samples(bytes, 0, bytes.length);
    }

    public static byte[] bytes(short[] samples) {
        byte[] bytes = new byte[samples.length * 2];
        for (int i = 0; i < samples.length; i++) {
            bytes[2 * i] = (byte) samples[i];
            bytes[2 * i + 1] = (byte) (samples[i] >> 8);
        }
        return bytes;
    }

    /** Root mean square of the samples, in dBFS (0 is full scale, silence far below -60). */
    public static double dbfs(short[] samples) {
        if (samples.length == 0) {
            return -120;
        }
        double sum = 0;
        for (short s : samples) {
            sum += (double) s * s;
        }
        double rms = Math.sqrt(sum / samples.length);
        return rms < 1 ? -120 : 20 * Math.log10(rms / 32768.0);
    }
}
