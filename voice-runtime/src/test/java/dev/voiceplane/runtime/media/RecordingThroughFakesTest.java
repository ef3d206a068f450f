package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * Recordings through the runtime's media endpoint, with the providers as local fakes and file-service as WireMock:
 * the parts the runtime streamed are put together and the stereo file's channels are checked window by window
 * against what the caller said and what it heard. Also hipaaEnabled (nothing recorded, no transcript text in the
 * logs), the office background sound and the settings the runtime names as not honoured.
 */
@QuarkusTest
class RecordingThroughFakesTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    /** 20 ms windows at 8 kHz. */
    private static final int WINDOW = 160;
    /** A window with speech in it; the fixtures speak at about −20 dBFS, silence is digital zero. */
    private static final double SPEECH_DBFS = -40;

    @InjectWireMock
    WireMockServer wireMock;

    private record Uploads(String stereo, String mono, String stereoFile, String monoFile) {
    }

    /** file-service's recording routes, for this call's two uploads. */
    private Uploads fileService(UUID callId) {
        Uploads uploads = new Uploads(UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                UUID.randomUUID().toString(), UUID.randomUUID().toString());
        for (String[] kind : new String[][] {{"stereo", uploads.stereo(), uploads.stereoFile()},
                {"mono", uploads.mono(), uploads.monoFile()}}) {
            wireMock.stubFor(post(urlEqualTo("/internal/file/recording"))
                    .withRequestBody(containing(callId + "-" + kind[0] + ".wav"))
                    .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                            .withBody("{\"id\":\"" + kind[1] + "\",\"parts\":0,\"bytes\":0}")));
            wireMock.stubFor(put(urlPathMatching("/internal/file/recording/" + kind[1] + "/part/[0-9]+"))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("{\"id\":\"" + kind[1] + "\",\"parts\":1,\"bytes\":2}")));
            wireMock.stubFor(post(urlEqualTo("/internal/file/recording/" + kind[1] + "/complete"))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("{\"id\":\"" + kind[2] + "\",\"url\":\"/file/" + kind[2] + "/content\"}")));
        }
        return uploads;
    }

    /** The audio of an upload: its parts in order, as the runtime sent them. */
    private byte[] uploaded(String upload) {
        List<LoggedRequest> parts = new ArrayList<>(wireMock.findAll(
                putRequestedFor(urlPathMatching("/internal/file/recording/" + upload + "/part/[0-9]+"))));
        parts.sort(Comparator.comparingInt(part -> Integer.parseInt(part.getUrl().substring(part.getUrl()
                .lastIndexOf('/') + 1))));
        ByteArrayOutputStream audio = new ByteArrayOutputStream();
        int expected = 0;
        for (LoggedRequest part : parts) {
            int seq = Integer.parseInt(part.getUrl().substring(part.getUrl().lastIndexOf('/') + 1));
            assertEquals(expected++, seq, "parts numbered from 0, none missing");
            assertEquals("application/octet-stream", part.getHeader("Content-Type"));
            audio.writeBytes(part.getBody());
        }
        return audio.toByteArray();
    }

    /** Per 20 ms window, whether {@code channel} of interleaved PCM16 ({@code channels} of them) holds speech. */
    private static boolean[] speech(byte[] pcm, int channels, int channel) {
        short[] all = SpeechFixtures.decodePcm16le(pcm, 0, pcm.length);
        int frames = all.length / channels;
        boolean[] windows = new boolean[frames / WINDOW];
        for (int w = 0; w < windows.length; w++) {
            short[] window = new short[WINDOW];
            for (int i = 0; i < WINDOW; i++) {
                window[i] = all[(w * WINDOW + i) * channels + channel];
            }
            windows[w] = dbfs(window) > SPEECH_DBFS;
        }
        return windows;
    }

    private static double dbfs(short[] samples) {
        double rms = SpeechFixtures.rms(samples);
        return rms <= 0 ? -120 : 20 * Math.log10(rms / 32768.0);
    }

    /** The windows with speech of the fixture itself: its first to its last. */
    private static int spokenWindows(byte[] mulaw) {
        short[] samples = SpeechFixtures.decodeMulaw(mulaw, 0, mulaw.length);
        int first = -1;
        int last = -1;
        for (int w = 0; w < samples.length / WINDOW; w++) {
            if (dbfs(java.util.Arrays.copyOfRange(samples, w * WINDOW, (w + 1) * WINDOW)) > SPEECH_DBFS) {
                first = first < 0 ? w : first;
                last = w;
            }
        }
        return last - first + 1;
    }

    private static int first(boolean[] windows, int from) {
        for (int w = from; w < windows.length; w++) {
            if (windows[w]) {
                return w;
            }
        }
        return -1;
    }

    /** The last speech window of the stretch of speech starting at {@code from}, gaps under {@code gap} windows bridged. */
    private static int endOfStretch(boolean[] windows, int from, int gap) {
        int last = from;
        for (int w = from; w < windows.length && w - last <= gap; w++) {
            if (windows[w]) {
                last = w;
            }
        }
        return last;
    }

    private static int count(boolean[] windows, int from, int to) {
        int n = 0;
        for (int w = Math.max(0, from); w < Math.min(to, windows.length); w++) {
            n += windows[w] ? 1 : 0;
        }
        return n;
    }

    @Test
    void theStereoFileHoldsTheCallerLeftAndTheAssistantRightAsHeard() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = new StubbedCalls(wireMock);
        String org = calls.call(callId, StubbedCalls.assistant(",\"recordingEnabled\":true,"
                + "\"firstMessage\":\"Harbour Cafe, how can I help?\",\"endCallPhrases\":[\"goodbye\"]"));
        Uploads uploads = fileService(callId);
        FakeProviders.deepgram().script("What time do you open tomorrow?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine tomorrow. Goodbye!"));
        byte[] question = SpeechFixtures.mulaw8k("What time do you open tomorrow?");

        byte[] heard;
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to finish playing", BOUND, () -> caller.receivedMarks().size() > 0
                    && !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(question).voiceToVoiceMs(BOUND);
            assertTrue(caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS).byRuntime());
            heard = caller.receivedAudio();
        }
        JsonNode ended = Eventually.value("the ended event", () -> calls.ended(callId), event -> event != null);
        assertEquals("http://localhost:8080/file/" + uploads.stereoFile() + "/content",
                ended.path("stereoRecordingUrl").asText(), ended.toString());
        assertEquals("http://localhost:8080/file/" + uploads.monoFile() + "/content",
                ended.path("recordingUrl").asText(), ended.toString());
        List<LoggedRequest> starts = wireMock.findAll(postRequestedFor(urlEqualTo("/internal/file/recording"))
                .withRequestBody(containing(callId.toString())));
        assertEquals(2, starts.size());
        assertTrue(starts.stream().anyMatch(start -> start.getBodyAsString().contains("\"channels\":2")
                && start.getBodyAsString().contains("\"sampleRate\":8000")), "stereo at the call's rate");
        assertEquals(org, starts.get(0).getHeader("X-Voice-Org-Id"));

        byte[] stereo = uploaded(uploads.stereo());
        byte[] mono = uploaded(uploads.mono());
        assertEquals(stereo.length, 2 * mono.length, "the mono mix is as long as the stereo file");
        boolean[] left = speech(stereo, 2, 0);
        boolean[] right = speech(stereo, 2, 1);
        boolean[] mixed = speech(mono, 1, 0);

        // The greeting first (right only), then the question (left only), then the answer (right only).
        int greeting = first(right, 0);
        int asked = first(left, 0);
        assertTrue(greeting >= 0 && asked > greeting, "the greeting plays before the caller speaks");
        int greetingEnd = endOfStretch(right, greeting, 25);
        assertTrue(greetingEnd < asked, "the caller speaks after the greeting was heard");
        int askedEnd = endOfStretch(left, asked, 25);
        int answer = first(right, askedEnd);
        assertTrue(answer > askedEnd, "the answer plays after the question");
        // The caller's speech sits in the left channel as long as it was said (the fixture's own span ±100 ms).
        assertTrue(Math.abs((askedEnd - asked + 1) - spokenWindows(question)) <= 5,
                "the question spans " + (askedEnd - asked + 1) + " windows, said in " + spokenWindows(question));
        // Each channel holds its own side only.
        assertEquals(0, count(left, greeting, greetingEnd + 1), "no caller audio in the left channel during the greeting");
        assertEquals(0, count(right, asked, askedEnd + 1), "no assistant audio in the right channel during the question");
        // The right channel holds what the caller heard: as many windows of speech as it received (±10%).
        boolean[] received = new boolean[heard.length / WINDOW];
        for (int w = 0; w < received.length; w++) {
            received[w] = dbfs(SpeechFixtures.decodeMulaw(heard, w * WINDOW, WINDOW)) > SPEECH_DBFS;
        }
        int heardWindows = count(received, 0, received.length);
        int rightWindows = count(right, 0, right.length);
        assertTrue(Math.abs(heardWindows - rightWindows) <= heardWindows / 10,
                "right channel " + rightWindows + " windows of speech, the caller heard " + heardWindows);
        // The mono mix has both.
        assertTrue(count(mixed, asked, askedEnd + 1) >= count(left, asked, askedEnd + 1) - 1);
        assertTrue(count(mixed, 0, mixed.length) >= rightWindows + count(left, 0, left.length) - 2);
    }

    @Test
    void aBargeInCutsTheAssistantsChannelWhereTheCallerStoppedHearingIt() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = new StubbedCalls(wireMock);
        String org = calls.call(callId, StubbedCalls.assistant(",\"recordingEnabled\":true,"
                + "\"firstMessageMode\":\"assistant-waits-for-user\""));
        Uploads uploads = fileService(callId);
        FakeProviders.deepgram().script("Tell me about the menu.", "Just the prices please.");
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text("Our menu has many dishes. There are soups and salads. There are sandwiches and"
                        + " wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.")
                : new FakeOpenAi.Text("Everything is under ten pounds."));
        double bargeInMs;
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            bargeInMs = interruption.bargeInMs(BOUND);
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to be heard", BOUND, () -> calls.transcript(callId).size() == 4);
        }
        Eventually.until("the ended event", BOUND, () -> calls.ended(callId) != null);
        byte[] stereo = uploaded(uploads.stereo());
        boolean[] left = speech(stereo, 2, 0);
        boolean[] right = speech(stereo, 2, 1);
        int question = first(left, 0);
        int questionEnd = endOfStretch(left, question, 25);
        int reply = first(right, questionEnd);
        int interruption = first(left, reply);
        assertTrue(reply > questionEnd && interruption > reply, "question, reply, then the interruption");
        int interruptionEnd = endOfStretch(left, interruption, 25);
        int answer = first(right, interruptionEnd);
        assertTrue(answer > interruptionEnd, "the answer to the interruption comes after it");
        // The reply stops where the runtime cleared it (the barge-in as the caller measured it, plus a window and
        // what a 20 ms frame's placement can add): nothing of it after, until the answer.
        int cut = interruption + (int) Math.ceil(bargeInMs / 20) + 3;
        assertEquals(0, count(right, cut, answer), "the reply is cut at the barge-in: " + bargeInMs + " ms");
        assertTrue(count(right, interruption - 5, interruption) > 0, "the reply was playing when the caller spoke");
    }

    @Test
    void aHipaaCallRecordsNothingAndLogsNoTranscriptText() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = new StubbedCalls(wireMock);
        String org = calls.call(callId, StubbedCalls.assistant(",\"recordingEnabled\":true,\"hipaaEnabled\":true,"
                + "\"firstMessageMode\":\"assistant-waits-for-user\""));
        fileService(callId);
        FakeProviders.deepgram().script("My card number is secret.");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Your private answer is ready."));
        java.util.logging.Logger runtimeLogs = java.util.logging.Logger.getLogger("dev.voiceplane");
        Level before = runtimeLogs.getLevel();
        runtimeLogs.setLevel(Level.FINEST);
        try (StubbedCalls.LogCapture logs = new StubbedCalls.LogCapture()) {
            try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
                caller.say(SpeechFixtures.mulaw8k("My card number is secret.")).voiceToVoiceMs(BOUND);
                Eventually.until("the answer to be heard", BOUND, () -> calls.transcript(callId).size() == 2);
            }
            JsonNode ended = Eventually.value("the ended event", () -> calls.ended(callId), event -> event != null);
            assertFalse(ended.has("recordingUrl"), ended.toString());
            assertFalse(ended.has("stereoRecordingUrl"), ended.toString());
            assertEquals(0, wireMock.findAll(postRequestedFor(urlEqualTo("/internal/file/recording"))
                    .withRequestBody(containing(callId.toString()))).size(), "nothing was recorded");
            assertTrue(logs.logged("call " + callId + ": recordingEnabled is not honoured: hipaaEnabled records nothing"));
            assertTrue(logs.records().size() > 3, "the call's lines were captured");
            for (String text : List.of("card number", "secret", "private answer")) {
                assertFalse(logs.logged(text), "no log line holds the words \"" + text + "\"");
            }
        } finally {
            runtimeLogs.setLevel(before);
        }
    }

    @Test
    void theOfficeSoundIsHeardUnderSilenceAndTheSettingsNotRunAreNamed() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = new StubbedCalls(wireMock);
        String org = calls.call(callId, StubbedCalls.assistant(",\"backgroundSound\":\"office\","
                + "\"backchannelingEnabled\":true,\"firstMessageMode\":\"assistant-waits-for-user\"")
                .replace("\"inputMinCharacters\":10", "\"inputMinCharacters\":10,\"fillerInjectionEnabled\":true")
                .replace("\"model\":\"gpt-4o-mini\",", "\"model\":\"gpt-4o-mini\",\"emotionRecognitionEnabled\":true,"));
        UUID quietId = UUID.randomUUID();
        String quietOrg = calls.call(quietId, StubbedCalls.assistant(",\"backgroundSound\":\"off\","
                + "\"firstMessageMode\":\"assistant-waits-for-user\""));
        try (StubbedCalls.LogCapture logs = new StubbedCalls.LogCapture();
                FakeTwilioCaller office = calls.phoneCall(null, callId, org);
                FakeTwilioCaller quiet = calls.phoneCall(null, quietId, quietOrg)) {
            // Nobody speaks; the office is heard all the same: a second of it, quiet but not silence.
            Eventually.until("a second of the office", BOUND, () -> office.playedAudio().length >= 8000);
            byte[] played = office.playedAudio();
            short[] ambience = SpeechFixtures.decodeMulaw(played, 0, 8000);
            double level = dbfs(ambience);
            assertTrue(level > -55 && level < -30, "the office at " + level + " dBFS");
            Eventually.until("the quiet call to run as long", BOUND, () -> quiet.receivedMarks().isEmpty()
                    && logs.logged("call " + quietId) && calls.events(quietId).size() >= 1);
            assertEquals(0, quiet.receivedAudio().length, "backgroundSound off sends nothing while no one speaks");
            for (String setting : List.of("backchannelingEnabled", "fillerInjectionEnabled", "emotionRecognitionEnabled")) {
                assertTrue(logs.logged("call " + callId + ": " + setting + " is not honoured"), setting);
                assertFalse(logs.logged("call " + quietId + ": " + setting), setting);
            }
        }
    }
}
