package dev.voiceplane.runtime.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.runtime.fake.DtmfDecoder;
import org.junit.jupiter.api.Test;

class DtmfTest {

    @Test
    void everyKeyIsHeardBackInBothFormats() {
        for (AudioFormat format : AudioFormat.values()) {
            byte[] tones = Dtmf.tones("0123456789*#ABCD", format);
            assertEquals("0123456789*#ABCD", DtmfDecoder.decode(tones, format), format.name());
            assertEquals(16 * (Dtmf.TONE_MILLIS + Dtmf.GAP_MILLIS) / 1000.0, format.seconds(tones.length), 0.001);
        }
    }

    @Test
    void aRepeatedKeyIsHeardTwiceThanksToTheGap() {
        assertEquals("11#", DtmfDecoder.decode(Dtmf.tones("11#", AudioFormat.ULAW_8K), AudioFormat.ULAW_8K));
    }

    @Test
    void onlyKeypadKeysAreValid() {
        assertTrue(Dtmf.valid("123*#abcd"));
        assertFalse(Dtmf.valid(""));
        assertFalse(Dtmf.valid("12e"));
        assertFalse(Dtmf.valid(null));
    }

    @Test
    void silenceAndASingleSineAreNoKey() {
        short[] sine = new short[1600];
        for (int i = 0; i < sine.length; i++) {
            sine[i] = (short) (10000 * Math.sin(2 * Math.PI * 697 * i / 8000.0));
        }
        assertEquals("", DtmfDecoder.decode(AudioFormat.ULAW_8K.fromPcm(sine, 8000), AudioFormat.ULAW_8K));
        assertEquals("", DtmfDecoder.decode(new byte[3200], AudioFormat.PCM16_16K));
    }
}
