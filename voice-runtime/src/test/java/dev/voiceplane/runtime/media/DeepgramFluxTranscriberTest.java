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
import dev.voiceplane.runtime.fake.FakeDeepgramFlux;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: deepgram} with a {@code flux…} model: Deepgram Flux over {@code /v2/listen} through its
 * fake, its turns ending the caller's turns; phone and web calls, a barge-in, and each way Flux fails.
 */
@QuarkusTest
class DeepgramFluxTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"deepgram\",\"model\":\"flux-general-en\","
            + "\"language\":\"en\"}";

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
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.NONE);
    }

    private static Map<String, String> keys() {
        return TranscriberScenarios.keys("deepgram", FakeProviders.DEEPGRAM_KEY);
    }

    @Test
    void aPhoneCallIsTranscribedByFluxInMuLaw() throws Exception {
        FakeDeepgramFlux flux = FakeProviders.deepgram().flux();
        int connectionsBefore = flux.connections();
        int controlBefore = flux.controlMessages().size();
        int chunksBefore = flux.chunkBytes().size();
        double audioBefore = flux.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall("{\"provider\":\"deepgram\",\"model\":\"flux-general-en\","
                + "\"language\":\"en\",\"eotThreshold\":0.8,\"eotTimeoutMs\":3000,\"keyterm\":[\"Harbour\"]}", keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals(QUESTION, call.heardByModel());
        assertEquals(connectionsBefore + 1, flux.connections(), "one Flux stream, not /v1/listen");
        assertEquals("Token " + FakeProviders.DEEPGRAM_KEY, flux.lastAuthorization());
        assertEquals("flux-general-en", flux.lastQuery("model"));
        assertEquals("mulaw", flux.lastQuery("encoding"), "μ-law end to end");
        assertEquals("8000", flux.lastQuery("sample_rate"));
        assertEquals("0.8", flux.lastQuery("eot_threshold"));
        assertEquals("3000", flux.lastQuery("eot_timeout_ms"));
        assertEquals(List.of("Harbour"), flux.lastQueryAll("keyterm"));
        assertNull(flux.lastQuery("language_hint"), "flux-general-en takes no language");
        List<Integer> chunks = flux.chunkBytes().subList(chunksBefore, flux.chunkBytes().size());
        assertTrue(!chunks.isEmpty() && chunks.stream().allMatch(bytes -> bytes == 640),
                "80 ms chunks (640 bytes of μ-law): " + chunks);
        List<String> control = flux.controlMessages();
        assertEquals(List.of("{\"type\":\"CloseStream\"}"), control.subList(controlBefore, control.size()).stream()
                .filter(message -> !message.contains("KeepAlive")).toList(),
                "nothing at the end of speech (Flux ends turns itself), CloseStream at the end");
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio Flux got (" + sttSeconds + " s)",
                () -> Math.abs(flux.audioSeconds() - audioBefore - sttSeconds) < 0.1);
    }

    @Test
    void aWebCallSendsPcmAndTheMultilingualModelGetsTheLanguageAsAHint() throws Exception {
        FakeDeepgramFlux flux = FakeProviders.deepgram().flux();
        int sentBefore = flux.sent().size();
        TranscriberScenarios.Call call = scenarios.webCall("{\"provider\":\"deepgram\",\"model\":\"flux-general-multi\","
                + "\"language\":\"de\",\"eagerEotThreshold\":0.5}", keys());

        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("flux-general-multi", flux.lastQuery("model"));
        assertEquals("linear16", flux.lastQuery("encoding"));
        assertEquals("16000", flux.lastQuery("sample_rate"));
        assertEquals("de", flux.lastQuery("language_hint"));
        assertEquals("0.5", flux.lastQuery("eager_eot_threshold"));
        List<String> sent = flux.sent();
        assertTrue(sent.subList(sentBefore, sent.size()).stream()
                .anyMatch(message -> message.contains("\"EagerEndOfTurn\"")),
                "eager ends of turn were asked for and came (and did not end the turn early)");
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.deepgram().flux().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.REFUSE_401);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", false, "refused the stream (401)", "auth");
    }

    @Test
    void tooManyRequestsEndsTheCall() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.REFUSE_429);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", false, "refused the stream (429)", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.REFUSE_500);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", false, "Flux answered nothing within 3000 ms", "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", false, "did not open the stream within 3000 ms",
                "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", false, "Flux sent a message that is not JSON", "protocol");
    }

    @Test
    void aFatalErrorMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.deepgram().flux().failure(FakeDeepgramFlux.Failure.ERROR_ON_FIRST_TURN);
        scenarios.failure(TRANSCRIBER, keys(), "deepgram", true,
                "Flux error INTERNAL_SERVER_ERROR: An internal server error occurred.", "unavailable");
    }
}
