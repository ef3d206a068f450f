package dev.voiceplane.runtime.audio;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A WAV file (RIFF, PCM 16-bit little-endian, mono) around raw samples: what transcription endpoints take as a file. */
public final class Wav {

    private Wav() {
    }

    /** {@code pcm} (PCM16 LE mono at {@code sampleRate}) with its 44-byte header. */
    public static byte[] pcm16(byte[] pcm, int sampleRate) {
        ByteBuffer wav = ByteBuffer.allocate(44 + pcm.length).order(ByteOrder.LITTLE_ENDIAN);
        wav.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(36 + pcm.length).put(new byte[] {'W', 'A', 'V', 'E'});
        wav.put(new byte[] {'f', 'm', 't', ' '}).putInt(16).putShort((short) 1).putShort((short) 1)
                .putInt(sampleRate).putInt(sampleRate * 2).putShort((short) 2).putShort((short) 16);
        wav.put(new byte[] {'d', 'a', 't', 'a'}).putInt(pcm.length).put(pcm);
        return wav.array();
    }
}
