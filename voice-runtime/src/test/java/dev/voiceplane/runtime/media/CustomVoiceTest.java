package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.audio.MuLaw;
import dev.voiceplane.runtime.audio.Pcm16;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeCustomVoice;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTtsServer;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code voice.provider: custom-voice}: the customer's own speech server, asked with the hosted platform's
 * {@code voice-request} (FakeCustomVoice), without any credential: a phone call from greeting to goodbye with a
 * barge-in, a web call, what the server is sent (secret, headers, rate, text), and each way the server fails ending
 * the call with {@code assistant-error} and the voice named.
 */
@QuarkusTest
class CustomVoiceTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String GREETING = "Harbour Cafe, how can I help?";
    private static final String QUESTION = "Tell me about the menu.";
    private static final String LONG_REPLY = "Our menu has many dishes. There are soups and salads. There are"
            + " sandwiches and wraps. There are grilled fish plates. There are cakes and pastries.";
    private static final String INTERRUPTION = "Just the prices please.";
    private static final String ANSWER = "Everything is under ten pounds. Goodbye!";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;
    private StubbedCalls.LogCapture logs;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        logs = new StubbedCalls.LogCapture();
        // The organisations have no custom-voice credential: credential-service answers an empty list.
        StubbedCalls.noCredential(wireMock, "custom-voice");
        reset();
    }

    @AfterEach
    void tearDown() {
        logs.close();
        reset();
    }

    private static void reset() {
        FakeProviders.customVoice().failure(FakeTtsServer.Failure.NONE).holdAfterMs(0, text -> false)
                .secret(FakeProviders.CUSTOM_VOICE_SECRET);
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.NONE);
    }

    private static String voice(String secret) {
        return "{\"provider\":\"custom-voice\",\"voiceId\":\"harbour-anna\",\"server\":{\"url\":\""
                + FakeProviders.customVoice().url() + "\",\"secret\":\"" + secret + "\",\"timeoutSeconds\":20,"
                + "\"headers\":{\"X-Tenant\":\"harbour\",\"Content-Type\":\"text/plain\"}}}";
    }

    private static String assistant(String voice, String extra) {
        return AssistantJson.onFakes().voice(voice).with(extra).json();
    }

    private static Map<String, String> keys(String... more) {
        Map<String, String> keys = new HashMap<>(Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "openai",
                FakeProviders.OPENAI_KEY));
        for (int i = 0; i < more.length; i += 2) {
            keys.put(more[i], more[i + 1]);
        }
        return keys;
    }

    private static List<FakeCustomVoice.Request> sentSince(int before) {
        List<FakeCustomVoice.Request> all = FakeProviders.customVoice().requests();
        return all.subList(before, all.size());
    }

    @Test
    void aPhoneCallIsSpokenByTheCustomersServerFromGreetingToGoodbye() throws Exception {
        FakeCustomVoice server = FakeProviders.customVoice();
        int before = server.requests().size();
        int cancelledBefore = server.disconnects();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice(FakeProviders.CUSTOM_VOICE_SECRET), ",\"firstMessage\":\""
                + GREETING + "\",\"endCallPhrases\":[\"goodbye\"]"), keys());
        FakeProviders.deepgram().script(QUESTION, INTERRUPTION);
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text(LONG_REPLY) : new FakeOpenAi.Text(ANSWER));
        server.holdAfterMs(500, text -> text.startsWith("There "));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            // The server's 8 kHz PCM, made μ-law by the runtime: every whole frame of the greeting, sample for sample.
            byte[] spoken = MuLaw.encode(Pcm16.samples(FakeCustomVoice.audio(GREETING, 8000)));
            int whole = spoken.length / 160 * 160;
            assertTrue(caller.receivedAudio().length >= whole, "the whole greeting arrived");
            assertArrayEquals(Arrays.copyOf(spoken, whole), Arrays.copyOf(caller.receivedAudio(), whole),
                    "the caller heard the customer's voice");
            int greetingBytes = caller.playedAudio().length;

            caller.say(SpeechFixtures.mulaw8k(QUESTION)).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND,
                    () -> caller.playedAudio().length > greetingBytes + 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k(INTERRUPTION));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            Eventually.until("the held speech to be cancelled at the customer's server", BOUND,
                    () -> server.disconnects() > cancelledBefore);
            interruption.voiceToVoiceMs(BOUND);
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up after the end-call phrase: " + closed);
        }
        JsonNode ended = calls.ended(callId);
        assertNotNull(ended);
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText(), ended.toString());
        List<String> transcript = calls.transcript(callId);
        assertEquals(5, transcript.size(), transcript.toString());
        assertEquals("bot: " + GREETING, transcript.get(0));
        assertEquals("user: " + QUESTION, transcript.get(1));
        assertTrue(transcript.get(2).startsWith("bot: Our menu") && transcript.get(2).length() < LONG_REPLY.length(),
                "the interrupted reply keeps what was played: " + transcript.get(2));
        assertEquals("user: " + INTERRUPTION, transcript.get(3));
        assertEquals("bot: " + ANSWER, transcript.get(4));
        assertNoneLost(callId);

        List<FakeCustomVoice.Request> sent = sentSince(before);
        List<String> texts = sent.stream().map(FakeCustomVoice.Request::text).toList();
        assertTrue(texts.contains(GREETING) && texts.contains("Everything is under ten pounds.")
                && texts.stream().anyMatch(text -> text.startsWith("Our menu has many dishes.")), texts.toString());
        for (FakeCustomVoice.Request request : sent) {
            assertEquals("/api/synthesize", request.path());
            assertEquals("voice-request", request.type());
            assertEquals(8000, request.sampleRate(), "a phone call asks for 8 kHz: nothing is resampled");
            assertEquals(FakeProviders.CUSTOM_VOICE_SECRET, request.headers().get("X-VAPI-SECRET"));
            assertEquals("harbour", request.headers().get("X-Tenant"), "the server's headers are sent");
            assertEquals("application/json", request.headers().get("Content-Type"), "the body is JSON, whatever"
                    + " the headers say");
            assertNull(request.headers().get("Authorization"), "the organisation has no custom-voice key");
            JsonNode body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(request.body().encode());
            assertTrue(body.path("message").path("timestamp").asLong() > 0, body.toString());
            assertEquals("harbour-anna", body.path("message").path("assistant").path("voice").path("voiceId")
                    .asText(), "the voice the assistant names");
            assertFalse(body.toString().contains(FakeProviders.CUSTOM_VOICE_SECRET), "the secret is not in the body");
        }
    }

    @Test
    void aWebCallAsksForPcmAt16kAndHearsItAsSent() throws Exception {
        FakeCustomVoice server = FakeProviders.customVoice();
        int before = server.requests().size();
        UUID callId = UUID.randomUUID();
        String assistant = assistant(voice(FakeProviders.CUSTOM_VOICE_SECRET), ",\"firstMessage\":\"" + GREETING
                + "\"");
        String org = calls.call(callId, assistant, keys("custom-voice", "cv-org-key"));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"webCall\"},\"assistant\":"
                                + assistant + ",\"variableValues\":{}}")));
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            greeted(caller);
            byte[] spoken = FakeCustomVoice.audio(GREETING, 16000);
            int whole = spoken.length / 640 * 640;
            assertTrue(caller.receivedAudio().length >= whole, "the whole greeting arrived");
            assertArrayEquals(Arrays.copyOf(spoken, whole), Arrays.copyOf(caller.receivedAudio(), whole),
                    "the web caller heard the server's PCM as it sent it");
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
        List<FakeCustomVoice.Request> sent = sentSince(before);
        assertFalse(sent.isEmpty());
        for (FakeCustomVoice.Request request : sent) {
            assertEquals(16000, request.sampleRate());
            assertEquals("Bearer cv-org-key", request.headers().get("Authorization"),
                    "the organisation's custom-voice key, when it has one");
        }
    }

    @Test
    void aSecretTheServerRefusesEndsTheCallBeforeAnythingIsPlayed() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice("not-the-secret"), ",\"firstMessage\":\"Hello.\""), keys());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            endedCleanly(callId, caller);
            assertEquals(0, caller.receivedAudio().length, "nothing was played");
        }
        assertTrue(logs.logged("custom-voice answered 401 (auth)"), "the log says why");
    }

    @Test
    void tooManyRequestsMidCallEndsTheCall() throws Exception {
        failsMidCall(() -> FakeProviders.customVoice().failure(FakeTtsServer.Failure.RATE_LIMITED),
                "custom-voice answered 429 (rate-limited)");
    }

    @Test
    void aServerErrorMidCallEndsTheCall() throws Exception {
        failsMidCall(() -> FakeProviders.customVoice().failure(FakeTtsServer.Failure.SERVER_ERROR),
                "custom-voice answered 500 (unavailable)");
    }

    @Test
    void aServerThatNeverSpeaksEndsTheCall() throws Exception {
        failsMidCall(() -> FakeProviders.customVoice().failure(FakeTtsServer.Failure.HANG),
                "custom-voice no audio within 4000 ms (timeout)");
    }

    @Test
    void anAnswerThatIsNotAudioEndsTheCallWithoutPlayingIt() throws Exception {
        failsMidCall(() -> FakeProviders.customVoice().failure(FakeTtsServer.Failure.NOT_AUDIO),
                "custom-voice answered 200 with application/json, not audio (protocol)");
    }

    @Test
    void aVoiceWithoutAServerIsRefusedAtTheStart() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("{\"provider\":\"custom-voice\"}", ",\"firstMessage\":\"Hello.\""),
                keys());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), closed.toString());
            assertEquals(0, caller.receivedAudio().length);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("assistant-error", calls.ended(callId).path("endedReason").asText());
        assertTrue(calls.transcript(callId).stream()
                .anyMatch(line -> line.contains("voice provider custom-voice needs voice.server.url")),
                calls.transcript(callId).toString());
    }

    /** The greeting is heard, then the server fails (as {@code failing} makes it) on the reply: the call ends. */
    private void failsMidCall(Runnable failing, String why) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice(FakeProviders.CUSTOM_VOICE_SECRET),
                ",\"firstMessage\":\"Hello.\""), keys());
        FakeProviders.deepgram().script("When do you open?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            int heard = caller.receivedAudio().length;
            failing.run();
            caller.say(SpeechFixtures.mulaw8k("When do you open?"));
            endedCleanly(callId, caller);
            assertEquals(heard, caller.receivedAudio().length, "nothing more was played");
        }
        assertEquals(List.of("bot: Hello.", "user: When do you open?",
                "system: The call ended: the voice (custom-voice) failed."), calls.transcript(callId));
        assertTrue(logs.logged(why), "the log says why (" + why + ")");
    }

    private static void greeted(FakeCaller caller) {
        Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                && !caller.playing() && !caller.receivedMarks().isEmpty()
                && caller.echoedMarks().size() == caller.receivedMarks().size());
    }

    /**
     * The carrier's stream was closed normally by the runtime after {@code ended} (assistant-error, the last event,
     * none lost); the transcript's last line and a log line name the voice; nothing uncaught; no call left live.
     */
    private void endedCleanly(UUID callId, FakeCaller caller) throws Exception {
        FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
        JsonNode ended = calls.ended(callId);
        assertNotNull(ended, "ended was reported before the stream was closed");
        assertEquals("assistant-error", ended.path("endedReason").asText(), ended.toString());
        assertNoneLost(callId);
        List<String> transcript = calls.transcript(callId);
        assertEquals("system: The call ended: the voice (custom-voice) failed.", transcript.get(transcript.size() - 1),
                transcript.toString());
        assertTrue(logs.logged("the voice (provider custom-voice) failed"), "a log line names the provider");
        Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
        assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
    }

    private void assertNoneLost(UUID callId) {
        List<JsonNode> events = calls.events(callId);
        assertEquals("ended", events.get(events.size() - 1).path("type").asText(), "ended is the last event");
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost: " + events);
        }
    }
}
