package dev.voiceplane.runtime.audio;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.runtime.fake.SpeechFixtures;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The voicemail beep detector: a steady tone is a beep, speech, noise and a short blip are not. */
class ToneDetectorTest {

    static short[] tone(double hz, int millis, int rate, double dbfs) {
        short[] samples = new short[millis * rate / 1000];
        double amplitude = 32767 * Math.pow(10, dbfs / 20);
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) Math.round(amplitude * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return samples;
    }

    @Test
    void aSteadyToneIsABeepAtEitherRate() {
        for (int rate : new int[] {8000, 16000}) {
            for (double hz : new double[] {440, 1000, 1400, 1970}) {
                assertTrue(new ToneDetector(rate).audio(tone(hz, 250, rate, -12)), hz + " Hz at " + rate);
            }
        }
    }

    @Test
    void aToneThroughMuLawIsStillABeep() {
        short[] decoded = AudioFormat.ULAW_8K.toPcm(AudioFormat.ULAW_8K.fromPcm(tone(1000, 300, 8000, -10), 8000));
        assertTrue(new ToneDetector(8000).audio(decoded));
    }

    @Test
    void aBlipSpeechNoiseAndALowHumAreNot() {
        assertFalse(new ToneDetector(8000).audio(tone(1000, 100, 8000, -12)), "100 ms is too short");
        assertFalse(new ToneDetector(8000).audio(tone(200, 500, 8000, -12)), "below 400 Hz");
        assertFalse(new ToneDetector(8000).audio(tone(1000, 500, 8000, -60)), "too quiet");
        byte[] speech = SpeechFixtures.pcm16k("Hi, you have reached Ada. Please leave a message after the tone.");
        assertFalse(new ToneDetector(16000).audio(SpeechFixtures.decodePcm16le(speech, 0, speech.length)), "speech");
        Random random = new Random(7);
        short[] noise = new short[8000];
        for (int i = 0; i < noise.length; i++) {
            noise[i] = (short) (random.nextGaussian() * 3000);
        }
        assertFalse(new ToneDetector(8000).audio(noise), "white noise");
    }
}
