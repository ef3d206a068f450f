package dev.voiceplane.file.recording;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The 44-byte header of a canonical RIFF/WAVE file of 16-bit PCM, written once the data's length is known. */
final class Wav {

    static final int HEADER = 44;
    /** The RIFF size fields are 32-bit: the data must leave room for the header below 4 GiB. */
    static final long MAX_DATA = 0xFFFF_FFFFL - HEADER;

    private Wav() {
    }

    static byte[] header(int channels, int sampleRate, long dataBytes) {
        if (dataBytes < 0 || dataBytes > MAX_DATA) {
            throw new IllegalArgumentException("a WAV file holds at most " + MAX_DATA + " bytes of audio");
        }
        int blockAlign = channels * 2;
        ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        header.put("RIFF".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        header.putInt((int) (36 + dataBytes));
        header.put("WAVEfmt ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        header.putInt(16);
        header.putShort((short) 1); // PCM
        header.putShort((short) channels);
        header.putInt(sampleRate);
        header.putInt(sampleRate * blockAlign);
        header.putShort((short) blockAlign);
        header.putShort((short) 16);
        header.put("data".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        header.putInt((int) dataBytes);
        return header.array();
    }
}
