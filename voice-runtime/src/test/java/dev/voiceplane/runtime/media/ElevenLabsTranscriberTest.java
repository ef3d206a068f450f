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
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeElevenLabsScribe;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: 11labs} through its fake (ElevenLabs' realtime Scribe): phone and web calls, the
 * manual commits at the caller's end of speech or ElevenLabs' own VAD, a barge-in, a file-only model refused at the
 * start, and each way ElevenLabs fails ending the call with {@code assistant-error} and the transcriber named.
 */
@QuarkusTest
class ElevenLabsTranscriberTest {

    private static final String TRANSCRIBER = "{\"provider\":\"11labs\",\"language\":\"en\"}";

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
        scribe().failure(FakeElevenLabsScribe.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        scribe().failure(FakeElevenLabsScribe.Failure.NONE);
    }

    private static FakeElevenLabsScribe scribe() {
        return FakeProviders.elevenlabs().scribe();
    }

    /** The model's and the voice's keys; the transcriber's {@code 11labs} key is the voice's. */
    private static Map<String, String> keys() {
        return TranscriberScenarios.keys();
    }

    @Test
    void aPhoneCallIsTranscribedInMuLawCommittedAtTheEndOfSpeech() throws Exception {
        FakeElevenLabsScribe scribe = scribe();
        int commitsBefore = scribe.commits();
        double audioBefore = scribe.audioSeconds();
        int chunksBefore = scribe.sampleRates().size();
        TranscriberScenarios.Call call = scenarios.phoneCall(TRANSCRIBER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("customer-ended-call", call.ended().path("endedReason").asText());
        assertEquals(QUESTION, call.heardByModel(), "the model got the committed transcript");
        assertEquals(FakeProviders.ELEVENLABS_KEY, scribe.lastApiKey(), "the organisation's 11labs key");
        assertEquals("scribe_v2_realtime", scribe.lastQuery("model_id"));
        assertEquals("ulaw_8000", scribe.lastQuery("audio_format"), "μ-law end to end");
        assertEquals("manual", scribe.lastQuery("commit_strategy"));
        assertEquals("en", scribe.lastQuery("language_code"));
        assertNull(scribe.lastQuery("vad_silence_threshold_secs"));
        assertTrue(scribe.commits() > commitsBefore, "a commit when the caller stopped");
        List<Integer> rates = scribe.sampleRates().subList(chunksBefore, scribe.sampleRates().size());
        assertTrue(!rates.isEmpty() && rates.stream().allMatch(rate -> rate == 8000), rates.toString());
        List<Integer> millis = scribe.chunkMillis().subList(chunksBefore, scribe.chunkMillis().size());
        assertTrue(millis.stream().allMatch(chunk -> chunk <= 100), "chunks of 100 ms at most: " + millis);
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio ElevenLabs got (" + sttSeconds + " s)",
                () -> Math.abs(scribe.audioSeconds() - audioBefore - sttSeconds) < 0.2);
    }

    @Test
    void aWebCallSendsPcmAt16k() throws Exception {
        FakeElevenLabsScribe scribe = scribe();
        int rates = scribe.sampleRates().size();
        TranscriberScenarios.Call call = scenarios.webCall(
                "{\"provider\":\"11labs\",\"model\":\"scribe_v2_realtime\",\"language\":\"en\"}", keys());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("pcm_16000", scribe.lastQuery("audio_format"));
        List<Integer> sent = scribe.sampleRates();
        assertTrue(sent.size() > rates && sent.subList(rates, sent.size()).stream().allMatch(rate -> rate == 16000),
                sent.toString());
    }

    @Test
    void theAssistantsVadSettingsLetElevenLabsCommit() throws Exception {
        FakeElevenLabsScribe scribe = scribe();
        int commitsBefore = scribe.commits();
        TranscriberScenarios.Call call = scenarios.phoneCall("{\"provider\":\"11labs\",\"silenceThresholdSeconds\":0.5,"
                + "\"minSpeechDurationMs\":100,\"minSilenceDurationMs\":150,\"confidenceThreshold\":0.4}", keys());
        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals("vad", scribe.lastQuery("commit_strategy"));
        assertEquals("0.5", scribe.lastQuery("vad_silence_threshold_secs"));
        assertEquals("0.4", scribe.lastQuery("vad_threshold"));
        assertEquals("100", scribe.lastQuery("min_speech_duration_ms"));
        assertEquals("150", scribe.lastQuery("min_silence_duration_ms"));
        assertNull(scribe.lastQuery("language_code"), "no language: ElevenLabs detects it");
        assertEquals(commitsBefore, scribe.commits(), "ElevenLabs commits by itself");
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        scribe().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(TRANSCRIBER, keys());
    }

    @Test
    void aModelForFilesIsRefusedAtTheStart() throws Exception {
        int connections = scribe().connections();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, TranscriberScenarios.assistant("{\"provider\":\"11labs\",\"model\":\"scribe_v1\"}",
                ",\"firstMessage\":\"Hello.\""), keys());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(TranscriberScenarios.BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), closed.toString());
        }
        Eventually.until("the end", TranscriberScenarios.BOUND, () -> calls.ended(callId) != null);
        assertEquals("assistant-error", calls.ended(callId).path("endedReason").asText());
        assertTrue(calls.transcript(callId).stream().anyMatch(line -> line.contains(
                "transcriber provider 11labs model scribe_v1 is not a realtime model")), calls.transcript(callId)
                .toString());
        assertEquals(connections, scribe().connections(), "ElevenLabs was not asked");
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.BAD_KEY);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false,
                "refused the key (auth_error: You must be authenticated to use this endpoint.)", "auth");
    }

    @Test
    void anExceededQuotaEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.QUOTA_EXCEEDED);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false,
                "reported quota_exceeded: This request exceeds your quota.", "rate-limited");
    }

    @Test
    void tooManyRequestsEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.RATE_LIMITED);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false, "reported rate_limited: Too many concurrent requests.",
                "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.REFUSE_500);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.HANG);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false,
                "sent no session_started within 3000 ms of the opening", "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.HANG_UPGRADE);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false, "did not open the stream within 3000 ms", "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.GARBAGE);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void aSessionLostMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        scribe().failure(FakeElevenLabsScribe.Failure.ERROR_ON_COMMIT);
        scenarios.failure(TRANSCRIBER, keys(), "11labs", true,
                "reported transcriber_error: Internal transcription error", "unavailable");
    }
}
