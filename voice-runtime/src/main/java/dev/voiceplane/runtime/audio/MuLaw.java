package dev.voiceplane.runtime.audio;

/**
 * G.711 μ-law, the carriers' telephone codec: 8-bit samples at 8 kHz. Decoding is a 256-entry table; encoding the
 * standard segment search. Silence is {@code 0xFF}.
 */
public final class MuLaw {

    public static final byte SILENCE = (byte) 0xFF;
    private static final short[] DECODE = new short[256];
    private static final int BIAS = 0x84;
    private static final int CLIP = 32635;

    static {
        for (int i = 0; i < 256; i++) {
            int u = ~i & 0xFF;
            int t = ((u & 0x0F) << 3) + BIAS;
            t <<= (u & 0x70) >> 4;
            DECODE[i] = (short) ((u & 0x80) != 0 ? BIAS - t : t - BIAS);
        }
    }

    private MuLaw() {
    }

    public static short decode(byte sample) {
        return DECODE[sample & 0xFF];
    }

    public static byte encode(int pcm) {
        int sign = (pcm >> 8) & 0x80;
        if (sign != 0) {
            pcm = -pcm;
        }
        if (pcm > CLIP) {
            pcm = CLIP;
        }
        pcm += BIAS;
        int exponent = 7;
        for (int mask = 0x4000; (pcm & mask) == 0 && exponent > 0; mask >>= 1) {
            exponent--;
        }
        int mantissa = (pcm >> (exponent + 3)) & 0x0F;
        return (byte) ~(sign | (exponent << 4) | mantissa);
    }

    /** μ-law bytes to 16-bit samples. */
    public static short[] decode(byte[] ulaw) {
        short[] pcm = new short[ulaw.length];
        for (int i = 0; i < ulaw.length; i++) {
            pcm[i] = DECODE[ulaw[i] & 0xFF];
        }
        return pcm;
    }

    /** 16-bit samples to μ-law bytes. */
    public static byte[] encode(short[] pcm) {
        byte[] ulaw = new byte[pcm.length];
        for (int i = 0; i < pcm.length; i++) {
            ulaw[i] = encode(pcm[i]);
        }
        return ulaw;
    }
}
