package dev.voiceplane.runtime.media;

import static dev.voiceplane.runtime.media.SocketVoiceCalls.BOUND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeCartesia;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Calls whose voice is {@code cartesia}, through the runtime's media endpoints, with the fake Cartesia WebSocket
 * (contexts, base64 chunks, cancels) beside the fake transcriber and model: the greeting is heard, a turn is answered,
 * a barge-in cancels the contexts still being generated, and the call ends; the organisation's key, the assistant's
 * voice id, model, language and speed and the call's format are what Cartesia is sent; each of Cartesia's failures
 * ends the call with {@code assistant-error} and a transcript line naming it, nothing lost.
 */
@QuarkusTest
class CartesiaVoiceTest {

    private static final String VOICE_ID = "a0e99841-438c-4a64-b679-ae501e7d6091";
    private static final String VOICE = "{\"provider\":\"cartesia\",\"voiceId\":\"" + VOICE_ID + "\","
            + "\"model\":\"sonic-3\",\"language\":\"en\",\"speed\":1.1,\"inputMinCharacters\":10}";
    private static final String QUESTION = "What time do you open tomorrow?";
    private static final Map<String, String> KEYS = Map.of("deepgram", FakeProviders.DEEPGRAM_KEY,
            "openai", FakeProviders.OPENAI_KEY, "cartesia", FakeProviders.CARTESIA_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;
    private SocketVoiceCalls voiceCalls;
    private StubbedCalls.LogCapture logs;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        voiceCalls = new SocketVoiceCalls(wireMock, calls);
        voiceCalls.warmUp();
        logs = new StubbedCalls.LogCapture();
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.NONE).script(QUESTION);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine tomorrow."));
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.cartesia().failure(FakeCartesia.Failure.NONE).realTimeFactor(0);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
    }

    /** The generation requests Cartesia received whose transcript is one of {@code texts}. */
    private static List<JsonObject> requestsFor(Set<String> texts) {
        return FakeProviders.cartesia().requests().stream()
                .filter(request -> texts.contains(request.getString("transcript"))).toList();
    }

    @Test
    void aPhoneCallIsGreetedAnsweredAndEnded() throws Exception {
        int upgradesBefore = FakeProviders.cartesia().upgrades().size();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, SocketVoiceCalls.assistant(VOICE,
                ",\"firstMessage\":\"Harbour Cafe, how can I help?\""), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            SocketVoiceCalls.heardAndPlayed(caller, "the greeting");
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k(QUESTION));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "the reply was heard after the question ended");
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: We open at nine tomorrow."));
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        JsonNode ended = calls.ended(callId);
        assertEquals("customer-ended-call", ended.path("endedReason").asText());
        assertEquals(List.of("bot: Harbour Cafe, how can I help?", "user: " + QUESTION,
                "bot: We open at nine tomorrow."), calls.transcript(callId));
        assertEquals("Harbour Cafe, how can I help?".length() + "We open at nine tomorrow.".length(),
                ended.path("usage").path("ttsCharacters").asLong());

        // What Cartesia was sent is the assistant's: voice id, model, language, speed; μ-law 8 kHz end to end.
        List<JsonObject> requests = requestsFor(Set.of("Harbour Cafe, how can I help?", "We open at nine tomorrow."));
        assertEquals(2, requests.size(), requests.toString());
        Set<String> contexts = new HashSet<>();
        for (JsonObject request : requests) {
            assertEquals("sonic-3", request.getString("model_id"));
            assertEquals(new JsonObject().put("mode", "id").put("id", VOICE_ID), request.getJsonObject("voice"));
            assertEquals(new JsonObject().put("container", "raw").put("encoding", "pcm_mulaw").put("sample_rate", 8000),
                    request.getJsonObject("output_format"));
            assertEquals("en", request.getString("language"));
            assertEquals(1.1, request.getJsonObject("generation_config").getDouble("speed"));
            assertEquals(false, request.getBoolean("continue"));
            contexts.add(request.getString("context_id"));
        }
        assertEquals(2, contexts.size(), "one context per piece");
        // One socket for the call, opened with the organisation's key and the API version.
        List<FakeCartesia.Upgrade> upgrades = FakeProviders.cartesia().upgrades();
        assertEquals(List.of(new FakeCartesia.Upgrade(FakeProviders.CARTESIA_KEY, "2026-03-01", true)),
                upgrades.subList(upgradesBefore, upgrades.size()));
    }

    @Test
    void theCallerInterruptsAndTheContextsStillSpeakingAreCancelled() throws Exception {
        String reply = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
                + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
        FakeProviders.deepgram().script("Tell me about the menu.", "Just the prices please.");
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text(reply) : new FakeOpenAi.Text("Everything is under ten pounds."));
        // Half real time: the reply's later sentences are still being generated when the caller talks over it.
        FakeProviders.cartesia().realTimeFactor(0.5);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, SocketVoiceCalls.assistant(VOICE,
                ",\"firstMessageMode\":\"assistant-waits-for-user\""), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> calls.transcript(callId).size() == 4);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("user: Tell me about the menu.", transcript.get(0));
        assertTrue(transcript.get(1).startsWith("bot: Our menu"), transcript.toString());
        assertTrue(transcript.get(1).length() < ("bot: " + reply).length(), "the interrupted reply keeps what was"
                + " played: " + transcript.get(1));
        assertEquals("user: Just the prices please.", transcript.get(2));
        assertEquals("bot: Everything is under ten pounds.", transcript.get(3));
        Set<String> replyContexts = new HashSet<>();
        for (JsonObject request : requestsFor(Set.of(reply.split("(?<=\\.) ")))) {
            replyContexts.add(request.getString("context_id"));
        }
        assertEquals(6, replyContexts.size(), "every sentence of the reply was asked for at once, each its context");
        Set<String> cancelled = new HashSet<>(FakeProviders.cartesia().cancels());
        cancelled.retainAll(replyContexts);
        assertFalse(cancelled.isEmpty(), "the contexts still being generated were cancelled");
    }

    @Test
    void aWebCallIsSpokenInPcm() throws Exception {
        UUID callId = UUID.randomUUID();
        FakeProviders.deepgram().script("Do you have parking?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Yes, behind the building."));
        String org = voiceCalls.webCall(callId, SocketVoiceCalls.assistant(VOICE, ",\"firstMessage\":\"Hi, web caller.\""),
                KEYS);
        try (FakeWebCaller caller = voiceCalls.webCaller(callId, org)) {
            SocketVoiceCalls.heardAndPlayed(caller, "the greeting");
            assertTrue(caller.say(SpeechFixtures.pcm16k("Do you have parking?")).voiceToVoiceMs(BOUND) > 0);
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: Yes, behind the building."));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        List<JsonObject> requests = requestsFor(Set.of("Hi, web caller.", "Yes, behind the building."));
        assertEquals(2, requests.size(), requests.toString());
        for (JsonObject request : requests) {
            assertEquals(new JsonObject().put("container", "raw").put("encoding", "pcm_s16le").put("sample_rate", 16000),
                    request.getJsonObject("output_format"));
        }
    }

    // ---- failures -------------------------------------------------------------------------------------------------

    /** The greeting is asked for and Cartesia fails it: nothing is played, the call ends naming Cartesia. */
    private void greetingFails(Map<String, String> keys) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, SocketVoiceCalls.assistant(VOICE, ",\"firstMessage\":\"Hello.\""), keys);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            voiceCalls.assertEndedCleanly(logs, callId, caller, "voice", "cartesia");
            assertEquals(0, caller.receivedAudio().length, "nothing was played");
        }
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        greetingFails(Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "openai", FakeProviders.OPENAI_KEY,
                "cartesia", "sk_car_not-the-key"));
        assertTrue(logs.logged("cartesia refused the stream (401) (auth)"), "the log says why");
    }

    @Test
    void tooManyRequestsEndTheCall() throws Exception {
        FakeProviders.cartesia().failure(FakeCartesia.Failure.RATE_LIMITED);
        greetingFails(KEYS);
        assertTrue(logs.logged("answered an error (429 concurrency_limited: Too many concurrent requests)"
                + " (rate-limited)"), "the log says why");
    }

    @Test
    void aVoiceThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.cartesia().failure(FakeCartesia.Failure.HANG);
        greetingFails(KEYS);
        assertTrue(logs.logged("cartesia no audio within 4000 ms (timeout)"), "the log says why");
    }

    @Test
    void aVoiceThatAnswersGarbageEndsTheCall() throws Exception {
        FakeProviders.cartesia().failure(FakeCartesia.Failure.GARBAGE);
        greetingFails(KEYS);
        assertTrue(logs.logged("cartesia sent a message that is not JSON (protocol)"), "the log says why");
    }

    @Test
    void aServerErrorMidCallEndsTheCallKeepingTheTranscript() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, SocketVoiceCalls.assistant(VOICE, ",\"firstMessage\":\"Hello.\""), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            SocketVoiceCalls.heardAndPlayed(caller, "the greeting");
            FakeProviders.cartesia().failure(FakeCartesia.Failure.SERVER_ERROR);
            caller.say(SpeechFixtures.mulaw8k(QUESTION));
            voiceCalls.assertEndedCleanly(logs, callId, caller, "voice", "cartesia");
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("bot: Hello.", transcript.get(0));
        assertTrue(transcript.contains("user: " + QUESTION), transcript.toString());
        assertTrue(logs.logged("answered an error (500 internal_error: Internal server error) (unavailable)"),
                "the log says why");
    }
}
