package dev.voiceplane.runtime.audio;

/**
 * The two wire formats of the transports: μ-law 8 kHz (Twilio) and PCM16 16 kHz (web calls, Vonage). A call keeps
 * its transport's format end to end where the providers accept it: speech-to-text gets it as sent, text-to-speech
 * is asked for it.
 */
public enum AudioFormat {
    ULAW_8K(8000, 1),
    PCM16_16K(16000, 2);

    private final int sampleRate;
    private final int bytesPerSample;

    AudioFormat(int sampleRate, int bytesPerSample) {
        this.sampleRate = sampleRate;
        this.bytesPerSample = bytesPerSample;
    }

    public int sampleRate() {
        return sampleRate;
    }

    /** Bytes of one 20 ms frame. */
    public int frameBytes() {
        return sampleRate / 50 * bytesPerSample;
    }

    public double seconds(long bytes) {
        return (double) bytes / (sampleRate * bytesPerSample);
    }

    /** Decodes to 16-bit samples at this format's rate. */
    public short[] toPcm(byte[] audio) {
        return this == ULAW_8K ? MuLaw.decode(audio) : Pcm16.samples(audio);
    }

    /** Encodes 16-bit samples at {@code rate} into this format (resampled as needed). */
    public byte[] fromPcm(short[] samples, int rate) {
        short[] atRate = Resampler.convert(samples, rate, sampleRate);
        return this == ULAW_8K ? MuLaw.encode(atRate) : Pcm16.bytes(atRate);
    }

    /** One 20 ms frame of silence. */
    public byte[] silence() {
        byte[] frame = new byte[frameBytes()];
        if (this == ULAW_8K) {
            java.util.Arrays.fill(frame, MuLaw.SILENCE);
        }
        return frame;
    }
}
