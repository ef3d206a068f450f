package dev.voiceplane.runtime.provider;

import java.util.Arrays;

/**
 * Joins the call's audio frames (20 ms each from the carriers and web calls) into chunks of at least
 * {@code minBytes}, for vendors that want longer chunks than a frame (AssemblyAI refuses chunks under 50 ms, Deepgram
 * Flux asks for about 80 ms).
 */
public final class AudioChunks {

    private final int minBytes;
    private byte[] buffer;
    private int length;

    public AudioChunks(int minBytes) {
        this.minBytes = minBytes;
        this.buffer = new byte[minBytes * 2];
    }

    /** Adds {@code audio}; answers the chunk once at least {@code minBytes} are held, else null. */
    public byte[] add(byte[] audio) {
        if (length + audio.length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + audio.length));
        }
        System.arraycopy(audio, 0, buffer, length, audio.length);
        length += audio.length;
        if (length < minBytes) {
            return null;
        }
        byte[] chunk = Arrays.copyOf(buffer, length);
        length = 0;
        return chunk;
    }

    /** What is held (less than a chunk), or null when nothing is. */
    public byte[] flush() {
        if (length == 0) {
            return null;
        }
        byte[] rest = Arrays.copyOf(buffer, length);
        length = 0;
        return rest;
    }

    /** Bytes held, not yet a chunk. */
    public int held() {
        return length;
    }
}
