package dev.voiceplane.runtime.media;

import static dev.voiceplane.runtime.media.TranscriberScenarios.ANSWER;
import static dev.voiceplane.runtime.media.TranscriberScenarios.QUESTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeGladia;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: gladia} through its fake (the live API v2: the session request, then its WebSocket):
 * phone and web calls with the assistant's settings in the session's configuration, a barge-in, and each way Gladia
 * fails ending the call with {@code assistant-error} and the transcriber named.
 */
@QuarkusTest
class GladiaTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"gladia\",\"language\":\"en\"}";

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
        FakeProviders.gladia().failure(FakeGladia.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.gladia().failure(FakeGladia.Failure.NONE);
    }

    private static Map<String, String> keys() {
        return TranscriberScenarios.keys("gladia", FakeProviders.GLADIA_KEY);
    }

    private static JsonObject lastInit() {
        List<JsonObject> inits = FakeProviders.gladia().inits();
        return inits.get(inits.size() - 1);
    }

    @Test
    void aPhoneCallIsTranscribedInMuLawWithTheOrganisationsKey() throws Exception {
        FakeGladia gladia = FakeProviders.gladia();
        int chunksBefore = gladia.chunkMillis().size();
        int controlBefore = gladia.controlMessages().size();
        double audioBefore = gladia.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(TRANSCRIBER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("customer-ended-call", call.ended().path("endedReason").asText());
        assertEquals(QUESTION, call.heardByModel(), "the final utterance, without Gladia's leading space");
        assertEquals(FakeProviders.GLADIA_KEY, gladia.lastKey());
        assertNull(gladia.lastRegion(), "no region asked");
        JsonObject init = lastInit();
        assertEquals("wav/ulaw", init.getString("encoding"), "μ-law end to end");
        assertEquals(8, init.getInteger("bit_depth"));
        assertEquals(8000, init.getInteger("sample_rate"));
        assertEquals(1, init.getInteger("channels"));
        assertFalse(init.containsKey("model"), "Gladia's default model");
        assertEquals(new JsonObject().put("languages", new JsonArray().add("en")), init.getJsonObject("language_config"));
        JsonObject messages = init.getJsonObject("messages_config");
        assertEquals(true, messages.getBoolean("receive_acknowledgments"), "acknowledgments show a live stream");
        assertEquals(true, messages.getBoolean("receive_partial_transcripts"));
        List<Integer> chunks = gladia.chunkMillis().subList(chunksBefore, gladia.chunkMillis().size());
        assertTrue(!chunks.isEmpty() && chunks.stream().allMatch(millis -> millis <= 100), chunks.toString());
        Eventually.until("the session to be stopped", () -> gladia.controlMessages()
                .subList(controlBefore, gladia.controlMessages().size()).contains("{\"type\":\"stop_recording\"}"));
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio Gladia got (" + sttSeconds + " s)",
                () -> Math.abs(gladia.audioSeconds() - audioBefore - sttSeconds) < 0.1);
    }

    @Test
    void aWebCallSendsPcmAndTheAssistantsSettings() throws Exception {
        TranscriberScenarios.Call call = scenarios.webCall("{\"provider\":\"gladia\",\"model\":\"solaria-1\","
                + "\"languageBehaviour\":\"manual\",\"languages\":\"en\",\"endpointing\":0.3,\"audioEnhancer\":true,"
                + "\"speechThreshold\":0.6,\"region\":\"us-west\",\"keywords\":[\"Harbour:2\",\"gnocchi\"],"
                + "\"prosody\":true}", keys());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        JsonObject init = lastInit();
        assertEquals("wav/pcm", init.getString("encoding"));
        assertEquals(16, init.getInteger("bit_depth"));
        assertEquals(16000, init.getInteger("sample_rate"));
        assertEquals("solaria-1", init.getString("model"));
        assertEquals(0.3, init.getDouble("endpointing"));
        assertEquals(new JsonObject().put("languages", new JsonArray().add("en")), init.getJsonObject("language_config"));
        assertEquals(new JsonObject().put("audio_enhancer", true).put("speech_threshold", 0.6),
                init.getJsonObject("pre_processing"));
        assertEquals(new JsonArray().add("Harbour").add("gnocchi"), init.getJsonObject("realtime_processing")
                .getJsonObject("custom_vocabulary_config").getJsonArray("vocabulary"));
        assertFalse(init.containsKey("prosody"), "no such field in the live API");
        assertEquals("us-west", FakeProviders.gladia().lastRegion());
    }

    @Test
    void automaticLanguagesSendNoLanguage() throws Exception {
        scenarios.phoneCall("{\"provider\":\"gladia\",\"languageBehaviour\":\"automatic multiple languages\","
                + "\"receivePartialTranscripts\":false}", keys());
        JsonObject init = lastInit();
        assertEquals(new JsonObject().put("code_switching", true).put("languages", new JsonArray()),
                init.getJsonObject("language_config"));
        assertEquals(false, init.getJsonObject("messages_config").getBoolean("receive_partial_transcripts"));
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.gladia().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.BAD_KEY);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "answered 401 to the session request", "auth");
    }

    @Test
    void tooManySessionsEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.TOO_MANY_SESSIONS);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "answered 429 to the session request",
                "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.REFUSE_500);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "answered 500 to the session request",
                "unavailable");
    }

    @Test
    void aSessionRequestNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.HANG_INIT);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false,
                "did not answer the session request within 3000 ms", "timeout");
    }

    @Test
    void aSessionWithoutAUrlEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.NO_URL);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "answered the session request without a url",
                "protocol");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "acknowledged no audio within 3000 ms", "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "did not open the stream within 3000 ms", "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void aSessionLostMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.gladia().failure(FakeGladia.Failure.LOST_MID_CALL);
        scenarios.failure(TRANSCRIBER, keys(), "gladia", true, "closed the stream (1011 Internal server error)",
                "unavailable");
    }
}
