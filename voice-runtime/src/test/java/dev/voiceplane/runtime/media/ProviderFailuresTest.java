package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Providers that hang or answer garbage, each at the stage where it hurts: the call ends with {@code assistant-error}
 * (or, for a model with fallbacks, goes on with the next model) within the stage's deadline (tests: 3 s for the
 * transcriber and the model, 4 s for the voice), with what was said kept, a system line and a log line naming the
 * provider, {@code ended} before the carrier's stream is closed normally, no uncaught exception, and the live-calls
 * gauge back at 0.
 */
@QuarkusTest
class ProviderFailuresTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String QUESTION = "What time do you open tomorrow?";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;
    private StubbedCalls.LogCapture logs;

    @BeforeEach
    void setUp() {
        calls = new StubbedCalls(wireMock);
        logs = new StubbedCalls.LogCapture();
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.NONE).script(QUESTION);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
        FakeProviders.elevenlabs().failure(FakeElevenLabs.Failure.NONE);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.NONE);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
        FakeProviders.elevenlabs().failure(FakeElevenLabs.Failure.NONE);
    }

    /** The caller is greeted, asks, and the call ends because of {@code stage} of {@code provider}. */
    private void askedThenEnded(String assistantExtra, String stage, String provider, boolean greeted)
            throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(assistantExtra));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            if (greeted) {
                Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                        && !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size()
                        && !caller.receivedMarks().isEmpty());
            }
            caller.say(SpeechFixtures.mulaw8k(QUESTION));
            assertEndedCleanly(callId, caller, stage, provider);
        }
        List<String> transcript = calls.transcript(callId);
        if (greeted) {
            assertEquals("bot: Hello.", transcript.get(0), transcript.toString());
        }
        if (!"transcriber".equals(stage)) {
            assertTrue(transcript.contains("user: " + QUESTION), "what the caller said is kept: " + transcript);
        }
    }

    /**
     * The carrier saw a normal close by the runtime, after {@code ended} (assistant-error, the last event, no event
     * lost) was reported; the transcript's last line and a log line name the provider; nothing uncaught was logged;
     * the gauge of live calls is back at 0.
     */
    private void assertEndedCleanly(UUID callId, FakeCaller caller, String stage, String provider) throws Exception {
        FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
        JsonNode ended = calls.ended(callId);
        assertNotNull(ended, "ended was reported before the stream was closed");
        List<JsonNode> events = calls.events(callId);
        assertEquals("assistant-error", ended.path("endedReason").asText(), ended.toString());
        assertEquals(ended, events.get(events.size() - 1), "ended is the last event");
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost: " + events);
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("system: The call ended: the " + stage + " (" + provider + ") failed.",
                transcript.get(transcript.size() - 1), transcript.toString());
        assertTrue(logs.logged("(provider " + provider + ") failed"), "a log line names the provider");
        Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
        assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
    }

    // ---- the model ----------------------------------------------------------------------------------------------

    @Test
    void aModelThatHangsIsReplacedByItsFallbackModel() throws Exception {
        FakeProviders.openai().forModel("gpt-hangs", FakeOpenAi.Reply.hang());
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\"")
                .replace("\"model\":\"gpt-4o-mini\",", "\"model\":\"gpt-hangs\",\"fallbackModels\":[\"gpt-4o-mini\"],"));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Utterance asked = caller.say(SpeechFixtures.mulaw8k(QUESTION));
            double voiceToVoice = asked.voiceToVoiceMs(BOUND);
            assertTrue(voiceToVoice >= 3000, "the fallback was asked at the first-token deadline: " + voiceToVoice);
            Eventually.until("the fallback's reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: We open at nine."));
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
        assertEquals(List.of("user: " + QUESTION, "bot: We open at nine."), calls.transcript(callId));
        assertTrue(logs.logged("model gpt-hangs of provider openai failed: no text within 3000 ms"),
                "the hanging model is named in the log");
        Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
        assertEquals(List.of(), logs.uncaught());
    }

    @Test
    void aModelThatHangsWithoutFallbackEndsTheCall() throws Exception {
        FakeProviders.openai().script(request -> FakeOpenAi.Reply.hang());
        askedThenEnded(",\"firstMessage\":\"Hello.\"", "model", "openai", true);
        assertTrue(logs.logged("no text within 3000 ms"), "the log says why");
    }

    @Test
    void aModelThatStreamsGarbageEndsTheCall() throws Exception {
        FakeProviders.openai().script(request -> FakeOpenAi.Reply.garbage());
        askedThenEnded(",\"firstMessage\":\"Hello.\"", "model", "openai", true);
        assertTrue(logs.logged("an event that is not JSON"), "the log says why");
    }

    // ---- the transcriber ----------------------------------------------------------------------------------------

    @Test
    void aTranscriberThatAnswersGarbageEndsTheCall() throws Exception {
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.GARBAGE);
        askedThenEnded(",\"firstMessageMode\":\"assistant-waits-for-user\"", "transcriber", "deepgram", false);
        assertTrue(logs.logged("deepgram sent a message that is not JSON"), "the log says why");
    }

    @Test
    void aTranscriberThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.HANG);
        askedThenEnded(",\"firstMessageMode\":\"assistant-waits-for-user\"", "transcriber", "deepgram", false);
        assertTrue(logs.logged("deepgram answered nothing within 3000 ms of a Finalize"), "the log says why");
    }

    @Test
    void aTranscriberThatNeverOpensItsStreamEndsTheCall() throws Exception {
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.HANG_UPGRADE);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessage\":\"Hello.\""));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            assertEndedCleanly(callId, caller, "transcriber", "deepgram");
        }
        assertTrue(logs.logged("deepgram did not open the stream within 3000 ms"), "the log says why");
    }

    @Test
    void aTranscriberThatDropsTheStreamMidCallEndsTheCall() throws Exception {
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.CLOSE_ON_FINALIZE);
        askedThenEnded(",\"firstMessage\":\"Hello.\"", "transcriber", "deepgram", true);
        assertTrue(logs.logged("deepgram closed the stream (1011 NET-0000)"), "the log says why");
    }

    // ---- the voice ----------------------------------------------------------------------------------------------

    @Test
    void aVoiceThatHangsEndsTheCall() throws Exception {
        FakeProviders.elevenlabs().failure(FakeElevenLabs.Failure.HANG);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessage\":\"Hello.\""));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            assertEndedCleanly(callId, caller, "voice", "11labs");
            assertEquals(0, caller.receivedAudio().length, "nothing was played");
        }
        assertTrue(logs.logged("no audio within 4000 ms"), "the log says why");
    }

    @Test
    void aVoiceThatAnswersTextInsteadOfAudioEndsTheCallWithoutPlayingIt() throws Exception {
        FakeProviders.elevenlabs().failure(FakeElevenLabs.Failure.NOT_AUDIO);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessage\":\"Hello.\""));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            assertEndedCleanly(callId, caller, "voice", "11labs");
            assertEquals(0, caller.receivedAudio().length, "the text was not played as noise");
        }
        assertTrue(logs.logged("answered 200 with application/json, not audio"), "the log says why");
    }

    @Test
    void aVoiceThatAnswersAnHttpErrorMidCallEndsTheCallKeepingTheTranscript() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessage\":\"Hello.\""));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                    && !caller.playing() && !caller.receivedMarks().isEmpty()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            FakeProviders.elevenlabs().failure(FakeElevenLabs.Failure.SERVER_ERROR);
            caller.say(SpeechFixtures.mulaw8k(QUESTION));
            assertEndedCleanly(callId, caller, "voice", "11labs");
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("bot: Hello.", transcript.get(0));
        assertTrue(transcript.contains("user: " + QUESTION), transcript.toString());
        assertTrue(logs.logged("answered 500"), "the log says why");
    }
}
