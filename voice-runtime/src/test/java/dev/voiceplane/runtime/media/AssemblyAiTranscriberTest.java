package dev.voiceplane.runtime.media;

import static dev.voiceplane.runtime.media.TranscriberScenarios.ANSWER;
import static dev.voiceplane.runtime.media.TranscriberScenarios.QUESTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeAssemblyAi;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: assembly-ai} through its fake (Universal-Streaming v3): phone and web calls, a
 * barge-in, and each way AssemblyAI fails ending the call with {@code assistant-error} and the transcriber named.
 */
@QuarkusTest
class AssemblyAiTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"assembly-ai\",\"language\":\"en\"}";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;
    private StubbedCalls.LogCapture logs;
    private TranscriberScenarios scenarios;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        logs = new StubbedCalls.LogCapture();
        scenarios = new TranscriberScenarios(calls, logs);
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.NONE);
    }

    private static Map<String, String> keys() {
        return TranscriberScenarios.keys("assembly-ai", FakeProviders.ASSEMBLYAI_KEY);
    }

    @Test
    void aPhoneCallIsTranscribedInMuLawWithTheOrganisationsKey() throws Exception {
        FakeAssemblyAi assemblyAi = FakeProviders.assemblyAi();
        int forcedBefore = assemblyAi.forceEndpoints();
        double audioBefore = assemblyAi.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(TRANSCRIBER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("customer-ended-call", call.ended().path("endedReason").asText());
        assertEquals(QUESTION, call.heardByModel(), "the model got the formatted turn");
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        assertEquals(FakeProviders.ASSEMBLYAI_KEY, assemblyAi.lastAuthorization(), "the key itself, no scheme");
        assertEquals("pcm_mulaw", assemblyAi.lastQuery("encoding"), "μ-law end to end");
        assertEquals("8000", assemblyAi.lastQuery("sample_rate"));
        assertEquals("true", assemblyAi.lastQuery("format_turns"));
        assertEquals("universal-streaming-english", assemblyAi.lastQuery("speech_model"));
        assertTrue(assemblyAi.forceEndpoints() > forcedBefore, "ForceEndpoint when the caller stopped");
        assertTrue(assemblyAi.chunkMillis().stream().allMatch(millis -> millis >= 50 && millis <= 1000),
                "every chunk within AssemblyAI's 50-1000 ms: " + assemblyAi.chunkMillis());
        assertTrue(assemblyAi.controlMessages().contains("{\"type\":\"Terminate\"}"), "the session was terminated");
        Eventually.until("the usage to be the audio AssemblyAI got (" + sttSeconds + " s)",
                () -> Math.abs(assemblyAi.audioSeconds() - audioBefore - sttSeconds) < 0.1);
    }

    @Test
    void aWebCallSendsPcmAndTheAssistantsSettings() throws Exception {
        FakeAssemblyAi assemblyAi = FakeProviders.assemblyAi();
        TranscriberScenarios.Call call = scenarios.webCall("{\"provider\":\"assembly-ai\",\"language\":\"multi\","
                + "\"keytermsPrompt\":[\"Harbour Cafe\"],\"endOfTurnConfidenceThreshold\":0.6,\"maxTurnSilence\":1500,"
                + "\"formatTurns\":true}", keys());

        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("pcm_s16le", assemblyAi.lastQuery("encoding"));
        assertEquals("16000", assemblyAi.lastQuery("sample_rate"));
        assertEquals("universal-streaming-multilingual", assemblyAi.lastQuery("speech_model"));
        assertEquals("true", assemblyAi.lastQuery("language_detection"));
        assertEquals("[\"Harbour Cafe\"]", assemblyAi.lastQuery("keyterms_prompt"));
        assertEquals("0.6", assemblyAi.lastQuery("end_of_turn_confidence_threshold"));
        assertEquals("1500", assemblyAi.lastQuery("max_turn_silence"));
    }

    @Test
    void unformattedTurnsEndAtTheFirstEndOfTurn() throws Exception {
        FakeAssemblyAi assemblyAi = FakeProviders.assemblyAi().script("What time do you open tomorrow");
        int sentBefore = assemblyAi.sent().size();
        TranscriberScenarios.Call call = scenarios.phoneCall(
                "{\"provider\":\"assembly-ai\",\"speechModel\":\"universal-streaming-english\",\"formatTurns\":false}",
                keys());
        assertEquals("false", assemblyAi.lastQuery("format_turns"));
        assertEquals("user: what time do you open tomorrow", call.transcript().get(1), "the turn as heard");
        List<String> sent = assemblyAi.sent();
        assertFalse(sent.subList(sentBefore, sent.size()).stream()
                .anyMatch(message -> message.contains("\"turn_is_formatted\":true")), "no formatted turn was asked");
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.assemblyAi().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.BAD_KEY);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", false,
                "closed the stream (1008 Unauthorized Connection: Invalid API key)", "auth");
    }

    @Test
    void tooManySessionsEndsTheCall() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.TOO_MANY_SESSIONS);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", false,
                "closed the stream (3009 Unauthorized Connection: Too many concurrent sessions)", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.REFUSE_500);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", false, "sent no Begin within 3000 ms of the opening",
                "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", false, "did not open the stream within 3000 ms",
                "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void aSessionCancelledMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.assemblyAi().failure(FakeAssemblyAi.Failure.CANCEL_ON_FORCE_ENDPOINT);
        scenarios.failure(TRANSCRIBER, keys(), "assembly-ai", true,
                "closed the stream (3005 Session Cancelled: An error occurred)", "unavailable");
    }
}
