package dev.voiceplane.runtime.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AudioTest {

    @Test
    void muLawRoundTripsWithinItsQuantisation() {
        for (int sample = -32000; sample <= 32000; sample += 37) {
            int back = MuLaw.decode(MuLaw.encode(sample));
            int step = Math.max(8, Math.abs(sample) / 16);
            assertTrue(Math.abs(back - sample) <= step, sample + " came back as " + back);
        }
        assertEquals(0, MuLaw.decode(MuLaw.SILENCE));
        for (int code = 0; code < 256; code++) {
            if (code != 0x7F) { // μ-law's two zeros: 0x7F decodes to 0, which encodes as 0xFF
                assertEquals((byte) code, MuLaw.encode(MuLaw.decode((byte) code)), "code " + code);
            }
        }
    }

    @Test
    void pcmBytesAreLittleEndian() {
        short[] samples = {1, -2, 32767, -32768};
        byte[] bytes = Pcm16.bytes(samples);
        assertEquals(1, bytes[0]);
        assertEquals(0, bytes[1]);
        assertEquals((byte) 0xFE, bytes[2]);
        assertEquals((byte) 0xFF, bytes[3]);
        assertEquals(java.util.Arrays.toString(samples), java.util.Arrays.toString(Pcm16.samples(bytes)));
    }

    @Test
    void resamplingKeepsDurationAndLevel() {
        short[] tone = new short[2400];
        for (int i = 0; i < tone.length; i++) {
            tone[i] = (short) (10000 * Math.sin(2 * Math.PI * 440 * i / 24000.0));
        }
        short[] at8k = Resampler.convert(tone, 24000, 8000);
        short[] at16k = Resampler.convert(tone, 24000, 16000);
        assertEquals(800, at8k.length);
        assertEquals(1600, at16k.length);
        assertEquals(Pcm16.dbfs(tone), Pcm16.dbfs(at8k), 1.0);
        assertEquals(Pcm16.dbfs(tone), Pcm16.dbfs(at16k), 1.0);
    }

    @Test
    void voiceActivityStartsAndStopsWithHysteresis() {
        VoiceActivity vad = new VoiceActivity(new VoiceActivity.Settings(-40, 60, 200));
        short[] loud = new short[160];
        for (int i = 0; i < loud.length; i++) {
            loud[i] = (short) (8000 * Math.sin(2 * Math.PI * 300 * i / 8000.0));
        }
        short[] quiet = new short[160];
        assertEquals(VoiceActivity.Change.NONE, vad.frame(loud, 8000, 1));
        assertEquals(VoiceActivity.Change.NONE, vad.frame(quiet, 8000, 2), "a 20 ms click is not speech");
        assertEquals(VoiceActivity.Change.NONE, vad.frame(loud, 8000, 3));
        assertEquals(VoiceActivity.Change.NONE, vad.frame(loud, 8000, 4));
        assertEquals(VoiceActivity.Change.STARTED, vad.frame(loud, 8000, 5));
        for (int i = 0; i < 9; i++) {
            assertEquals(VoiceActivity.Change.NONE, vad.frame(quiet, 8000, 6 + i), "a pause shorter than the stop");
        }
        assertEquals(VoiceActivity.Change.STOPPED, vad.frame(quiet, 8000, 20));
        assertEquals(5, vad.lastVoicedAtNanos());
    }
}
