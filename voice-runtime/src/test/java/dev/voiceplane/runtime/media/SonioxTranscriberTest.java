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
import dev.voiceplane.runtime.fake.FakeSoniox;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: soniox} through its fake (the real-time WebSocket API): phone and web calls with the
 * assistant's settings in the start message, a barge-in, and each way Soniox fails ending the call with
 * {@code assistant-error} and the transcriber named.
 */
@QuarkusTest
class SonioxTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"soniox\",\"language\":\"en\"}";

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
        FakeProviders.soniox().failure(FakeSoniox.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.soniox().failure(FakeSoniox.Failure.NONE);
    }

    private static Map<String, String> keys() {
        return TranscriberScenarios.keys("soniox", FakeProviders.SONIOX_KEY);
    }

    private static JsonObject lastConfig() {
        List<JsonObject> configs = FakeProviders.soniox().configs();
        return configs.get(configs.size() - 1);
    }

    @Test
    void aPhoneCallIsTranscribedInMuLawAndFinalizedAtTheEndOfSpeech() throws Exception {
        FakeSoniox soniox = FakeProviders.soniox();
        int finalizesBefore = soniox.finalizes();
        int controlBefore = soniox.controlMessages().size();
        double audioBefore = soniox.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(TRANSCRIBER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("customer-ended-call", call.ended().path("endedReason").asText());
        assertEquals(QUESTION, call.heardByModel(), "the final tokens up to <fin>, joined");
        assertEquals("Bearer " + FakeProviders.SONIOX_KEY, soniox.lastAuthorization(), "the key with the connection");
        JsonObject config = lastConfig();
        assertEquals("<key>", config.getString("api_key"), "and in the start message, for the servers reading it there");
        assertEquals("stt-rt-v4", config.getString("model"));
        assertEquals("mulaw", config.getString("audio_format"), "μ-law end to end");
        assertEquals(8000, config.getInteger("sample_rate"));
        assertEquals(1, config.getInteger("num_channels"));
        assertEquals(new JsonArray().add("en"), config.getJsonArray("language_hints"));
        assertEquals(true, config.getBoolean("enable_endpoint_detection"));
        assertTrue(soniox.finalizes() > finalizesBefore, "finalize when the caller stopped");
        Eventually.until("the audio to be ended with an empty frame", () -> soniox.controlMessages()
                .subList(controlBefore, soniox.controlMessages().size()).contains(""));
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio Soniox got (" + sttSeconds + " s)",
                () -> Math.abs(soniox.audioSeconds() - audioBefore - sttSeconds) < 0.1);
    }

    @Test
    void aWebCallSendsPcmAndTheAssistantsSettings() throws Exception {
        TranscriberScenarios.Call call = scenarios.webCall("{\"provider\":\"soniox\",\"model\":\"stt-rt-v4\","
                + "\"language\":\"en\",\"languageHintsStrict\":true,\"maxEndpointDelayMs\":1500,"
                + "\"customVocabulary\":[\"Harbour Cafe\",\"gnocchi\"]}", keys());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        JsonObject config = lastConfig();
        assertEquals("pcm_s16le", config.getString("audio_format"));
        assertEquals(16000, config.getInteger("sample_rate"));
        assertEquals(true, config.getBoolean("language_hints_strict"));
        assertEquals(1500, config.getInteger("max_endpoint_delay_ms"));
        assertEquals(new JsonObject().put("terms", new JsonArray().add("Harbour Cafe").add("gnocchi")),
                config.getJsonObject("context"));
    }

    @Test
    void anAssistantWithoutALanguageSendsNoHint() throws Exception {
        scenarios.phoneCall("{\"provider\":\"soniox\"}", keys());
        assertFalse(lastConfig().containsKey("language_hints"), lastConfig().encode());
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.soniox().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.BAD_KEY);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", false, "reported 401: Invalid API key.", "auth");
    }

    @Test
    void tooManyRequestsEndsTheCall() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.TOO_MANY_REQUESTS);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", false, "reported 429: Too many requests.", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.REFUSE_500);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", false, "answered nothing within 3000 ms of a finalize",
                "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", false, "did not open the stream within 3000 ms", "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void aRequestTerminatedMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.soniox().failure(FakeSoniox.Failure.TERMINATED_ON_FINALIZE);
        scenarios.failure(TRANSCRIBER, keys(), "soniox", true,
                "reported 503: Cannot continue request (code 3). Please restart the request.", "unavailable");
    }
}
