package dev.voiceplane.runtime.media;

import static dev.voiceplane.runtime.media.TranscriberScenarios.ANSWER;
import static dev.voiceplane.runtime.media.TranscriberScenarios.QUESTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCartesiaStt;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: cartesia} through its fake (Ink, the realtime speech-to-text with manual
 * finalization): phone and web calls, a barge-in, and each way Cartesia fails ending the call with
 * {@code assistant-error} and the transcriber named.
 */
@QuarkusTest
class CartesiaTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"cartesia\",\"language\":\"en\"}";

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
        stt().failure(FakeCartesiaStt.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        stt().failure(FakeCartesiaStt.Failure.NONE);
    }

    private static FakeCartesiaStt stt() {
        return FakeProviders.cartesia().stt();
    }

    private static Map<String, String> keys() {
        return TranscriberScenarios.keys("cartesia", FakeProviders.CARTESIA_KEY);
    }

    @Test
    void aPhoneCallIsTranscribedInMuLawAndFinalizedAtTheEndOfSpeech() throws Exception {
        FakeCartesiaStt stt = stt();
        int finalizesBefore = stt.finalizes();
        int chunksBefore = stt.chunkMillis().size();
        int controlBefore = stt.controlMessages().size();
        double audioBefore = stt.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(TRANSCRIBER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("customer-ended-call", call.ended().path("endedReason").asText());
        assertEquals(QUESTION, call.heardByModel(), "the final deltas up to flush_done");
        assertEquals(FakeProviders.CARTESIA_KEY, stt.lastApiKey());
        assertEquals("2026-03-01", stt.lastVersion());
        assertEquals("ink-whisper", stt.lastQuery("model"));
        assertEquals("pcm_mulaw", stt.lastQuery("encoding"), "μ-law end to end");
        assertEquals("8000", stt.lastQuery("sample_rate"));
        assertEquals("en", stt.lastQuery("language"));
        assertTrue(stt.finalizes() > finalizesBefore, "finalize when the caller stopped");
        List<Integer> chunks = stt.chunkMillis().subList(chunksBefore, stt.chunkMillis().size());
        assertTrue(!chunks.isEmpty() && chunks.stream().allMatch(millis -> millis <= 100), chunks.toString());
        Eventually.until("the session to be ended with done", () -> stt.controlMessages()
                .subList(controlBefore, stt.controlMessages().size()).contains("done"));
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio Cartesia got (" + sttSeconds + " s)",
                () -> Math.abs(stt.audioSeconds() - audioBefore - sttSeconds) < 0.1);
    }

    @Test
    void aWebCallSendsPcmAt16k() throws Exception {
        TranscriberScenarios.Call call = scenarios.webCall("{\"provider\":\"cartesia\",\"model\":\"ink-whisper\"}",
                keys());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("pcm_s16le", stt().lastQuery("encoding"));
        assertEquals("16000", stt().lastQuery("sample_rate"));
        assertNull(stt().lastQuery("language"), "no language: Cartesia's default");
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        stt().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.UNAUTHORIZED);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", false, "refused the stream (401)", "auth");
    }

    @Test
    void tooManyRequestsEndsTheCall() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.RATE_LIMITED);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", false,
                "reported an error: Too many concurrent connections", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.SERVER_ERROR);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", false, "sent no flush_done within 3000 ms of a finalize",
                "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", false, "did not open the stream within 3000 ms",
                "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void anErrorMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        stt().failure(FakeCartesiaStt.Failure.ERROR_ON_FINALIZE);
        scenarios.failure(TRANSCRIBER, keys(), "cartesia", true, "reported an error: The transcription failed",
                "unavailable");
    }
}
