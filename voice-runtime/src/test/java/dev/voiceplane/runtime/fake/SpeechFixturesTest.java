package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpeechFixturesTest {

    @Test
    void speechIsRealTrimmedAndTheSameInEveryFormat() {
        byte[] mulaw = SpeechFixtures.mulaw8k("hello there");
        byte[] pcm16 = SpeechFixtures.pcm16k("hello there");
        byte[] pcm24 = SpeechFixtures.pcm24k("hello there");

        double seconds = SpeechFixtures.mulawSeconds(mulaw.length);
        assertTrue(seconds > 0.3 && seconds < 2, "two words last about half a second, not " + seconds);
        assertEquals(mulaw.length * 4, pcm16.length, 400, "16 kHz PCM16 is 4 bytes per μ-law byte");
        assertEquals(mulaw.length * 6, pcm24.length, 600, "24 kHz PCM16 is 6 bytes per μ-law byte");
        // Trimmed: the first and last 20 ms are not digital silence, and the middle is loud.
        assertTrue(SpeechFixtures.rms(SpeechFixtures.decodeMulaw(mulaw, mulaw.length / 2 - 80, 160)) > 500
                || SpeechFixtures.rms(SpeechFixtures.decodePcm16le(pcm16, 0, pcm16.length)) > 500, "speech is loud");
        assertTrue(SpeechFixtures.rms(SpeechFixtures.decodeMulaw(mulaw, 0, 160)) > 0, "no leading silence");
    }

    @Test
    void cachedByText() {
        assertArrayEquals(SpeechFixtures.mulaw8k("cached text"), SpeechFixtures.mulaw8k("cached text"));
        assertTrue(SpeechFixtures.mulaw8k("a much longer sentence than the other one").length
                > SpeechFixtures.mulaw8k("short").length);
        assertThrows(IllegalArgumentException.class, () -> SpeechFixtures.mulaw8k(" "));
    }

    @Test
    void mulawDecodesLikeG711() {
        assertEquals(0, SpeechFixtures.mulawToLinear((byte) 0xFF));
        assertEquals(-32124, SpeechFixtures.mulawToLinear((byte) 0x00));
        assertEquals(32124, SpeechFixtures.mulawToLinear((byte) 0x80));
    }
}
