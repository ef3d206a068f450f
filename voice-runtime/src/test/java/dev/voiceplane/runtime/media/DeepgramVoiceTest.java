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
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeDeepgramAura;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Calls whose voice is {@code deepgram} (Aura), through the runtime's media endpoints, with the fake Aura WebSocket
 * ({@code Speak}, {@code Flush}, {@code Clear}, binary audio) on the same fake Deepgram as the transcriber: the greeting
 * is heard, a turn is answered, a barge-in clears what Aura is speaking and drops the pieces not yet sent, and the call
 * ends; the organisation's key, the assistant's Aura model and speed and the call's format are what Aura is sent; each
 * of Aura's failures ends the call with {@code assistant-error} and a transcript line naming it, nothing lost.
 */
@QuarkusTest
class DeepgramVoiceTest {

    private static final String MODEL = "aura-2-thalia-en";
    private static final String VOICE = "{\"provider\":\"deepgram\",\"voiceId\":\"" + MODEL + "\",\"speed\":1.2,"
            + "\"inputMinCharacters\":10}";
    private static final String QUESTION = "What time do you open tomorrow?";
    /** One Deepgram key for the transcriber and the voice, as an organisation has. */
    private static final Map<String, String> KEYS = Map.of("deepgram", FakeProviders.DEEPGRAM_KEY,
            "openai", FakeProviders.OPENAI_KEY);

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
        aura().failure(FakeDeepgramAura.Failure.NONE).realTimeFactor(0);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
    }

    private static FakeDeepgramAura aura() {
        return FakeProviders.deepgram().aura();
    }

    private static List<String> spokenTexts(int from) {
        List<JsonObject> speaks = aura().messages("Speak");
        return speaks.subList(from, speaks.size()).stream().map(speak -> speak.getString("text")).toList();
    }

    @Test
    void aPhoneCallIsGreetedAnsweredAndEnded() throws Exception {
        int speaksBefore = aura().messages("Speak").size();
        int flushesBefore = aura().messages("Flush").size();
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

        // One socket, with the organisation's key, the assistant's Aura model and speed, μ-law 8 kHz end to end.
        assertEquals("Token " + FakeProviders.DEEPGRAM_KEY, aura().lastAuthorization());
        assertEquals(MODEL, aura().lastQuery("model"));
        assertEquals("mulaw", aura().lastQuery("encoding"));
        assertEquals("8000", aura().lastQuery("sample_rate"));
        assertEquals("1.2", aura().lastQuery("speed"));
        // Each piece its Speak and its Flush, one after the other.
        assertEquals(List.of("Harbour Cafe, how can I help?", "We open at nine tomorrow."), spokenTexts(speaksBefore));
        assertEquals(2, aura().messages("Flush").size() - flushesBefore);
    }

    @Test
    void theCallerInterruptsAndAuraIsCleared() throws Exception {
        String reply = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
                + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
        FakeProviders.deepgram().script("Tell me about the menu.", "Just the prices please.");
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text(reply) : new FakeOpenAi.Text("Everything is under ten pounds."));
        // Half real time: Aura is still speaking the reply when the caller talks over it.
        aura().realTimeFactor(0.5);
        int speaksBefore = aura().messages("Speak").size();
        int clearsBefore = aura().messages("Clear").size();
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
        assertEquals(1, aura().messages("Clear").size() - clearsBefore, "what Aura was speaking was cleared");
        List<String> sent = spokenTexts(speaksBefore);
        assertFalse(sent.contains("There is coffee and tea."), "the pieces waiting their turn were never sent: " + sent);
        assertEquals("Everything is under ten pounds.", sent.get(sent.size() - 1), sent.toString());
    }

    @Test
    void aWebCallIsSpokenInLinear16() throws Exception {
        UUID callId = UUID.randomUUID();
        FakeProviders.deepgram().script("Do you have parking?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Yes, behind the building."));
        String org = voiceCalls.webCall(callId, SocketVoiceCalls.assistant(VOICE, ",\"firstMessage\":\"Hi, web caller.\""),
                KEYS);
        try (FakeWebCaller caller = voiceCalls.webCaller(callId, org)) {
            SocketVoiceCalls.heardAndPlayed(caller, "the greeting");
            assertEquals("linear16", aura().lastQuery("encoding"));
            assertEquals("16000", aura().lastQuery("sample_rate"));
            assertTrue(caller.say(SpeechFixtures.pcm16k("Do you have parking?")).voiceToVoiceMs(BOUND) > 0);
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: Yes, behind the building."));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
    }

    // ---- failures -------------------------------------------------------------------------------------------------

    /** The greeting is asked for and Aura fails it: nothing is played, the call ends naming Deepgram's voice. */
    private void greetingFails() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, SocketVoiceCalls.assistant(VOICE, ",\"firstMessage\":\"Hello.\""), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            voiceCalls.assertEndedCleanly(logs, callId, caller, "voice", "deepgram");
            assertEquals(0, caller.receivedAudio().length, "nothing was played");
        }
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        aura().failure(FakeDeepgramAura.Failure.REFUSE_401);
        greetingFails();
        assertTrue(logs.logged("deepgram refused the stream (401) (auth)"), "the log says why");
    }

    @Test
    void tooManyRequestsEndTheCall() throws Exception {
        aura().failure(FakeDeepgramAura.Failure.REFUSE_429);
        greetingFails();
        assertTrue(logs.logged("deepgram refused the stream (429) (rate-limited)"), "the log says why");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        aura().failure(FakeDeepgramAura.Failure.REFUSE_500);
        greetingFails();
        assertTrue(logs.logged("deepgram refused the stream (500) (unavailable)"), "the log says why");
    }

    @Test
    void aVoiceThatNeverAnswersEndsTheCall() throws Exception {
        aura().failure(FakeDeepgramAura.Failure.HANG);
        greetingFails();
        assertTrue(logs.logged("deepgram no audio within 4000 ms (timeout)"), "the log says why");
    }

    @Test
    void aVoiceThatAnswersGarbageEndsTheCall() throws Exception {
        aura().failure(FakeDeepgramAura.Failure.GARBAGE);
        greetingFails();
        assertTrue(logs.logged("deepgram sent a message that is not JSON (protocol)"), "the log says why");
    }

    @Test
    void aSocketDroppedMidCallEndsTheCallKeepingTheTranscript() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, SocketVoiceCalls.assistant(VOICE, ",\"firstMessage\":\"Hello.\""), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            SocketVoiceCalls.heardAndPlayed(caller, "the greeting");
            aura().failure(FakeDeepgramAura.Failure.CLOSE_ON_FLUSH);
            caller.say(SpeechFixtures.mulaw8k(QUESTION));
            voiceCalls.assertEndedCleanly(logs, callId, caller, "voice", "deepgram");
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("bot: Hello.", transcript.get(0));
        assertTrue(transcript.contains("user: " + QUESTION), transcript.toString());
        assertTrue(logs.logged("deepgram closed the stream (1011 NET-0000) (unavailable)"), "the log says why");
    }
}
