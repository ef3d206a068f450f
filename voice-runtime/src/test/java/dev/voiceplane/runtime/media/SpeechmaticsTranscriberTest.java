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
import dev.voiceplane.runtime.fake.FakeSpeechmatics;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: speechmatics} through its fake (the real-time API): phone and web calls with the
 * assistant's settings in {@code StartRecognition}, a barge-in, and each way Speechmatics fails ending the call with
 * {@code assistant-error} and the transcriber named.
 */
@QuarkusTest
class SpeechmaticsTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"speechmatics\",\"language\":\"en\"}";

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
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.NONE);
    }

    private static Map<String, String> keys() {
        return TranscriberScenarios.keys("speechmatics", FakeProviders.SPEECHMATICS_KEY);
    }

    private static JsonObject lastStart() {
        List<JsonObject> starts = FakeProviders.speechmatics().starts();
        return starts.get(starts.size() - 1);
    }

    @Test
    void aPhoneCallIsTranscribedInMuLawAndItsUtteranceForcedAtTheEndOfSpeech() throws Exception {
        FakeSpeechmatics speechmatics = FakeProviders.speechmatics();
        int forcesBefore = speechmatics.forces();
        int chunksBefore = speechmatics.chunkMillis().size();
        double audioBefore = speechmatics.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(TRANSCRIBER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("customer-ended-call", call.ended().path("endedReason").asText());
        assertEquals(QUESTION, call.heardByModel(), "the model got the final words, without Speechmatics' space");
        assertEquals("Bearer " + FakeProviders.SPEECHMATICS_KEY, speechmatics.lastAuthorization());
        JsonObject start = lastStart();
        assertEquals(new JsonObject().put("type", "raw").put("encoding", "mulaw").put("sample_rate", 8000),
                start.getJsonObject("audio_format"), "μ-law end to end");
        JsonObject config = start.getJsonObject("transcription_config");
        assertEquals("en", config.getString("language"));
        assertEquals(true, config.getBoolean("enable_partials"));
        assertNull(config.getValue("operating_point"));
        assertNull(config.getValue("conversation_config"), "the runtime ends the turns");
        assertTrue(speechmatics.forces() > forcesBefore, "ForceEndOfUtterance when the caller stopped");
        List<Integer> chunks = speechmatics.chunkMillis().subList(chunksBefore, speechmatics.chunkMillis().size());
        assertTrue(!chunks.isEmpty() && chunks.stream().allMatch(millis -> millis <= 100), chunks.toString());
        assertTrue(speechmatics.controlMessages().stream().anyMatch(message -> message.startsWith(
                "{\"message\":\"EndOfStream\",\"last_seq_no\":")), "the stream was ended with its last seq_no");
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio Speechmatics got (" + sttSeconds + " s)",
                () -> Math.abs(speechmatics.audioSeconds() - audioBefore - sttSeconds) < 0.2);
    }

    @Test
    void aWebCallSendsPcmAndTheAssistantsSettings() throws Exception {
        TranscriberScenarios.Call call = scenarios.webCall("{\"provider\":\"speechmatics\",\"model\":\"default\","
                + "\"language\":\"en\",\"operatingPoint\":\"enhanced\",\"maxDelay\":1.5,\"enableDiarization\":true,"
                + "\"removeDisfluencies\":true,\"region\":\"us\",\"numeralStyle\":\"written\","
                + "\"customVocabulary\":[{\"content\":\"Harbour Cafe\",\"soundsLike\":[\"harbor cafe\"]},"
                + "{\"content\":\"gnocchi\"}]}", keys());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        JsonObject start = lastStart();
        assertEquals(new JsonObject().put("type", "raw").put("encoding", "pcm_s16le").put("sample_rate", 16000),
                start.getJsonObject("audio_format"));
        JsonObject config = start.getJsonObject("transcription_config");
        assertEquals("enhanced", config.getString("operating_point"));
        assertEquals(1.5, config.getDouble("max_delay"));
        assertEquals("speaker", config.getString("diarization"));
        assertEquals(new JsonObject().put("remove_disfluencies", true), config.getJsonObject(
                "transcript_filtering_config"));
        assertEquals(new JsonArray().add(new JsonObject().put("content", "Harbour Cafe")
                .put("sounds_like", new JsonArray().add("harbor cafe"))).add(new JsonObject().put("content", "gnocchi")),
                config.getJsonArray("additional_vocab"));
        assertFalse(config.containsKey("numeral_style"), "no such field in the real-time API");
        assertEquals("/v2", FakeProviders.speechmatics().lastPath(), "VOICE_SPEECHMATICS_URL is used whatever the"
                + " region");
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.speechmatics().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.BAD_KEY);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", false, "refused the stream (401)", "auth");
    }

    @Test
    void tooManySessionsEndsTheCall() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.QUOTA_EXCEEDED);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", false,
                "reported quota_exceeded: Concurrent session quota exceeded", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.REFUSE_500);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", false,
                "sent no RecognitionStarted within 3000 ms of the opening", "timeout");
    }

    @Test
    void aHandshakeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", false, "did not open the stream within 3000 ms",
                "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void aJobErrorMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.speechmatics().failure(FakeSpeechmatics.Failure.JOB_ERROR_ON_FORCE);
        scenarios.failure(TRANSCRIBER, keys(), "speechmatics", true, "reported job_error: Unable to process the job",
                "unavailable");
    }
}
