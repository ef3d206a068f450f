package dev.voiceplane.runtime.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Silero VAD on real speech (espeak-ng, as the carriers and web calls send it), silence and noise: the model, its
 * batching across calls, the VAD thread's hysteresis and what a call gets back, and that a closed detector is gone.
 */
class SileroVadTest {

    private static final String SENTENCE = "Could you tell me what time the harbour cafe opens tomorrow morning?";
    private static SileroModel model;
    private static Vertx vertx;

    @BeforeAll
    static void load() {
        model = SileroModel.load();
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void close() {
        model.close();
        vertx.close();
    }

    /** Speech probability of each window of {@code samples} at {@code rate}, one stream, one window at a time. */
    private static float[] probabilities(short[] samples, int rate) {
        int window = SileroModel.window(rate);
        int context = SileroModel.context(rate);
        float[] input = new float[context + window];
        float[] state = new float[SileroModel.STATE];
        float[] out = new float[samples.length / window];
        for (int w = 0; w < out.length; w++) {
            System.arraycopy(input, window, input, 0, context);
            for (int i = 0; i < window; i++) {
                input[context + i] = samples[w * window + i] / 32768f;
            }
            out[w] = model.run(rate, new float[][] {input}, new float[][] {state}, 1)[0];
        }
        return out;
    }

    private static short[] speech8k() {
        return MuLaw.decode(SpeechFixtures.mulaw8k(SENTENCE));
    }

    private static short[] noise(int samples, double dbfs, long seed) {
        Random random = new Random(seed);
        double rms = 32768 * Math.pow(10, dbfs / 20);
        short[] out = new short[samples];
        for (int i = 0; i < samples; i++) {
            out[i] = (short) Math.max(-32768, Math.min(32767, Math.round(random.nextGaussian() * rms)));
        }
        return out;
    }

    private static double share(float[] probabilities, double threshold) {
        int above = 0;
        for (float p : probabilities) {
            if (p >= threshold) {
                above++;
            }
        }
        return (double) above / probabilities.length;
    }

    @Test
    void speechIsSpeechAndSilenceOrNoiseIsNot() {
        float[] speech8k = probabilities(speech8k(), 8000);
        float[] speech16k = probabilities(Pcm16.samples(SpeechFixtures.pcm16k(SENTENCE)), 16000);
        assertTrue(share(speech8k, 0.5) > 0.6, "most windows of speech at 8 kHz are speech: "
                + java.util.Arrays.toString(speech8k));
        assertTrue(share(speech16k, 0.5) > 0.6, "most windows of speech at 16 kHz are speech: "
                + java.util.Arrays.toString(speech16k));
        assertEquals(0, share(probabilities(new short[8000 * 2], 8000), 0.5), "silence is not speech");
        float[] loudNoise = probabilities(noise(8000 * 3, -20, 1), 8000);
        assertEquals(0, share(loudNoise, 0.5), "white noise at -20 dBFS (louder than the energy threshold) is not "
                + "speech: " + java.util.Arrays.toString(loudNoise));
        short[] tone = new short[8000 * 2];
        for (int i = 0; i < tone.length; i++) {
            tone[i] = (short) (8000 * Math.sin(2 * Math.PI * 300 * i / 8000.0));
        }
        float[] hum = probabilities(tone, 8000);
        // Its onset may look like speech for one window (32 ms): less than the 60 ms speech must last to start.
        assertEquals(0, share(java.util.Arrays.copyOfRange(hum, 1, hum.length), 0.5),
                "a steady 300 Hz tone is not speech after its onset: " + java.util.Arrays.toString(hum));
    }

    @Test
    void aBatchGivesEachStreamWhatItWouldGetAlone() {
        short[] speech = speech8k();
        short[] noise = noise(speech.length, -25, 2);
        float[] aloneSpeech = probabilities(speech, 8000);
        float[] aloneNoise = probabilities(noise, 8000);
        int window = 256;
        int context = 32;
        float[][] inputs = new float[2][context + window];
        float[][] states = new float[2][SileroModel.STATE];
        short[][] streams = {speech, noise};
        for (int w = 0; w < aloneSpeech.length; w++) {
            for (int s = 0; s < 2; s++) {
                System.arraycopy(inputs[s], window, inputs[s], 0, context);
                for (int i = 0; i < window; i++) {
                    inputs[s][context + i] = streams[s][w * window + i] / 32768f;
                }
            }
            float[] batched = model.run(8000, inputs, states, 2);
            assertEquals(aloneSpeech[w], batched[0], 1e-4, "speech window " + w);
            assertEquals(aloneNoise[w], batched[1], 1e-4, "noise window " + w);
        }
    }

    /** What a call is told, in order, on its own context. */
    private record Heard(List<String> changes, List<Boolean> onContext) {
        Heard() {
            this(new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
        }
    }

    private static VoiceDetector open(SileroVad vad, Context context, AudioFormat format, Heard heard) {
        return vad.open(context, format, new VoiceDetector.Listener() {
            @Override
            public void started() {
                heard.onContext().add(Vertx.currentContext() == context);
                heard.changes().add("started");
            }

            @Override
            public void stopped(long speechEndedAtNanos) {
                heard.onContext().add(Vertx.currentContext() == context);
                heard.changes().add("stopped");
            }
        });
    }

    /**
     * Feeds 20 ms frames on the call's context, 200 ms at a time (fewer windows than a call may have waiting),
     * waiting for the VAD thread to take them.
     */
    private static void feed(SileroVad vad, Context context, VoiceDetector detector, short[] samples, int rate) {
        int frame = rate / 50;
        for (int from = 0; from < samples.length; from += rate / 5) {
            int to = Math.min(samples.length, from + rate / 5);
            int start = from;
            long before = done(vad);
            int windows = (to - start) / SileroModel.window(rate);
            context.runOnContext(ignored -> {
                for (int at = start; at + frame <= to; at += frame) {
                    detector.audio(java.util.Arrays.copyOfRange(samples, at, at + frame), System.nanoTime());
                }
            });
            Eventually.until("the VAD thread to take the windows", () -> done(vad) - before >= windows);
        }
    }

    private static long done(SileroVad vad) {
        SileroVad.Stats stats = vad.stats();
        return stats.inferred() + stats.gated();
    }

    private static short[] concat(short[]... parts) {
        int length = 0;
        for (short[] part : parts) {
            length += part.length;
        }
        short[] out = new short[length];
        int at = 0;
        for (short[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }

    @Test
    void callsAreToldWhenSpeechStartsAndStopsOnTheirContextAndAClosedDetectorIsGone() {
        SileroVad vad = new SileroVad(SileroModel.load(), new SileroVad.Settings(0.5, 60, 200, -55, 512));
        try {
            Context phone = vertx.getOrCreateContext();
            Context web = vertx.getOrCreateContext();
            Context noisy = vertx.getOrCreateContext();
            Heard phoneHeard = new Heard();
            Heard webHeard = new Heard();
            Heard noisyHeard = new Heard();
            VoiceDetector phoneCall = open(vad, phone, AudioFormat.ULAW_8K, phoneHeard);
            VoiceDetector webCall = open(vad, web, AudioFormat.PCM16_16K, webHeard);
            VoiceDetector noisyCall = open(vad, noisy, AudioFormat.ULAW_8K, noisyHeard);
            assertEquals(3, vad.openDetectors());

            short[] silence8k = new short[8000];
            feed(vad, phone, phoneCall, concat(silence8k, speech8k(), silence8k), 8000);
            feed(vad, web, webCall, concat(new short[16000], Pcm16.samples(SpeechFixtures.pcm16k(SENTENCE)),
                    new short[16000]), 16000);
            feed(vad, noisy, noisyCall, noise(8000 * 4, -20, 3), 8000);
            Eventually.until("the phone call's speech to start and stop", () -> phoneHeard.changes().size() >= 2);
            Eventually.until("the web call's speech to start and stop", () -> webHeard.changes().size() >= 2);
            assertEquals("started", phoneHeard.changes().get(0));
            assertEquals("stopped", phoneHeard.changes().get(phoneHeard.changes().size() - 1));
            assertEquals("started", webHeard.changes().get(0));
            assertEquals("stopped", webHeard.changes().get(webHeard.changes().size() - 1));
            assertTrue(phoneHeard.onContext().stream().allMatch(b -> b), "told on the call's own context");
            assertTrue(webHeard.onContext().stream().allMatch(b -> b), "told on the call's own context");
            assertEquals(List.of(), noisyHeard.changes(), "noise never starts speech");
            assertTrue(vad.stats().gated() > 0, "silence went by without the model");
            assertEquals(0, vad.stats().dropped(), "a VAD thread that keeps up drops nothing");

            phoneCall.close();
            webCall.close();
            noisyCall.close();
            assertEquals(0, vad.openDetectors(), "an ended call's detector is gone");
            // A closed detector takes no more audio: fed together with a live one, only the live one's windows count.
            Context other = vertx.getOrCreateContext();
            VoiceDetector otherCall = open(vad, other, AudioFormat.ULAW_8K, new Heard());
            long after = done(vad);
            phone.runOnContext(ignored -> phoneCall.audio(java.util.Arrays.copyOf(speech8k(), 1280),
                    System.nanoTime()));
            // 1,280 samples: eight 20 ms frames, five windows.
            feed(vad, other, otherCall, java.util.Arrays.copyOf(speech8k(), 1280), 8000);
            Eventually.until("the live call's windows", () -> done(vad) - after >= 5);
            assertEquals(5, done(vad) - after, "only the live call's 5 windows, none of the closed one's");
            otherCall.close();
        } finally {
            vad.close();
        }
    }

    @Test
    void aPauseInsideASentenceDoesNotEndItWhereverTheWindowsFall() {
        // espeak-ng leaves pauses of digital silence between some words; such a window is below the energy gate. Eight
        // offsets of 64 samples put the 512-sample windows at each place a 20 ms frame can start at 16 kHz, so a
        // pause falls wholly inside a window at some offsets and not at others.
        short[] sentence = Pcm16.samples(SpeechFixtures.pcm16k(
                "Could you tell me what time you open tomorrow and whether you take bookings for six people?"));
        SileroVad vad = new SileroVad(SileroModel.load(), new SileroVad.Settings(0.5, 60, 200, -55, 512));
        try {
            for (int offset = 0; offset < 8; offset++) {
                Context context = vertx.getOrCreateContext();
                Heard heard = new Heard();
                VoiceDetector call = open(vad, context, AudioFormat.PCM16_16K, heard);
                int lead = 16000 + offset * 64;
                // Whole 200 ms chunks, as feed() takes them: the silence after the sentence makes up the rest.
                int trail = 16000 + (3200 - (lead + sentence.length) % 3200) % 3200;
                feed(vad, context, call, concat(new short[lead], sentence, new short[trail]), 16000);
                Eventually.until("the sentence to start and stop", () -> heard.changes().contains("stopped"));
                assertEquals(List.of("started", "stopped"), heard.changes(),
                        "one sentence is one stretch of speech (offset " + offset * 64 + " samples)");
                call.close();
            }
            assertTrue(vad.stats().gated() > 0, "silence went by without the model");
        } finally {
            vad.close();
        }
    }
}
