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
import dev.voiceplane.runtime.fake.FakeOpenAiTranscription;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: openai} through its fake: a {@code gpt-…} model streams over the Realtime API in
 * transcription mode, any other model ({@code whisper-1}, a self-hosted Whisper's) is transcribed per utterance with
 * {@code POST /audio/transcriptions}; phone and web calls, a barge-in, and each way either fails.
 */
@QuarkusTest
class OpenAiTranscriberTest {

    private static final String REALTIME = "{\"provider\":\"openai\",\"model\":\"gpt-4o-transcribe\","
            + "\"language\":\"en\"}";
    private static final String WHISPER = "{\"provider\":\"openai\",\"model\":\"whisper-1\",\"language\":\"en\"}";

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
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.NONE).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.NONE);
    }

    /** The organisation's openai key serves the model and the transcriber alike. */
    private static Map<String, String> keys() {
        return TranscriberScenarios.keys();
    }

    // ---- the Realtime API ---------------------------------------------------------------------------------------

    @Test
    void aPhoneCallStreamsMuLawToTheRealtimeApi() throws Exception {
        FakeOpenAiTranscription openai = FakeProviders.openAiTranscription();
        int commitsBefore = openai.commits();
        double audioBefore = openai.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(REALTIME, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals(QUESTION, call.heardByModel());
        assertEquals("Bearer " + FakeProviders.OPENAI_KEY, openai.lastAuthorization());
        assertEquals("transcription", openai.lastIntent());
        assertNull(openai.lastBetaHeader(), "the GA interface");
        JsonObject session = openai.lastSession();
        assertEquals("transcription", session.getString("type"));
        JsonObject input = session.getJsonObject("audio").getJsonObject("input");
        assertEquals("audio/pcmu", input.getJsonObject("format").getString("type"), "μ-law end to end");
        assertEquals("gpt-4o-transcribe", input.getJsonObject("transcription").getString("model"));
        assertEquals("en", input.getJsonObject("transcription").getString("language"));
        assertEquals("server_vad", input.getJsonObject("turn_detection").getString("type"));
        assertTrue(openai.commits() > commitsBefore, "a commit when the caller stopped");
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio OpenAI got (" + sttSeconds + " s)",
                () -> Math.abs(openai.audioSeconds() - audioBefore - sttSeconds) < 0.15);
    }

    @Test
    void aWebCallStreamsPcmAt24KilohertzAndTheModelAsNamed() throws Exception {
        FakeOpenAiTranscription openai = FakeProviders.openAiTranscription();
        TranscriberScenarios.Call call = scenarios.webCall(
                "{\"provider\":\"openai\",\"model\":\"gpt-4o-mini-transcribe\"}", keys());

        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        JsonObject input = openai.lastSession().getJsonObject("audio").getJsonObject("input");
        assertEquals(new JsonObject().put("type", "audio/pcm").put("rate", 24000), input.getJsonObject("format"));
        assertEquals("gpt-4o-mini-transcribe", input.getJsonObject("transcription").getString("model"));
        assertNull(input.getJsonObject("transcription").getString("language"), "no language when none is set");
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.openAiTranscription().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(REALTIME, keys());
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.BAD_KEY);
        scenarios.failure(REALTIME, keys(), "openai", false,
                "answered an error (invalid_request_error invalid_api_key)", "auth");
    }

    @Test
    void aRateLimitEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.RATE_LIMITED);
        scenarios.failure(REALTIME, keys(), "openai", false, "refused the stream (429)", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.REFUSE_500);
        scenarios.failure(REALTIME, keys(), "openai", false, "refused the stream (500)", "unavailable");
    }

    @Test
    void aStreamThatNeverAnswersEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.HANG);
        scenarios.failure(REALTIME, keys(), "openai", false, "answered nothing within 3000 ms", "timeout");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.HANG_UPGRADE);
        scenarios.failure(REALTIME, keys(), "openai", false, "did not open the stream within 3000 ms", "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.GARBAGE);
        scenarios.failure(REALTIME, keys(), "openai", false, "sent an event that is not JSON", "protocol");
    }

    @Test
    void aServerErrorMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.SERVER_ERROR_ON_COMMIT);
        scenarios.failure(REALTIME, keys(), "openai", true, "answered an error (server_error)", "unavailable");
    }

    // ---- per utterance ------------------------------------------------------------------------------------------

    @Test
    void whisperTranscribesEachUtteranceOfAPhoneCallAsAWavFile() throws Exception {
        FakeOpenAiTranscription openai = FakeProviders.openAiTranscription();
        int requestsBefore = openai.requests().size();
        int connectionsBefore = openai.connections();
        TranscriberScenarios.Call call = scenarios.phoneCall(WHISPER, keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        assertEquals(connectionsBefore, openai.connections(), "no Realtime stream");
        List<FakeOpenAiTranscription.Request> requests = openai.requests();
        assertEquals(requestsBefore + 1, requests.size(), "one request for the one utterance: " + requests);
        FakeOpenAiTranscription.Request request = requests.get(requests.size() - 1);
        assertEquals("Bearer " + FakeProviders.OPENAI_KEY, request.authorization());
        assertEquals("whisper-1", request.model());
        assertEquals("en", request.language());
        assertEquals("json", request.responseFormat());
        assertEquals(8000, request.sampleRate(), "the phone call's rate, μ-law decoded");
        double spoken = SpeechFixtures.mulawSeconds(SpeechFixtures.mulaw8k(QUESTION).length);
        assertTrue(request.seconds() >= spoken && request.seconds() < spoken + 1.5,
                "the utterance without the quiet before it: " + request.seconds() + " s for " + spoken + " s spoken");
        assertEquals(request.seconds(), call.ended().path("usage").path("sttSeconds").asDouble(), 0.01,
                "the usage is the audio sent");
    }

    @Test
    void aSelfHostedWhisperModelGetsTheWebCallsPcm() throws Exception {
        FakeOpenAiTranscription openai = FakeProviders.openAiTranscription();
        TranscriberScenarios.Call call = scenarios.webCall(
                "{\"provider\":\"openai\",\"model\":\"Systran/faster-whisper-small\"}", keys());

        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
        FakeOpenAiTranscription.Request request = openai.requests().get(openai.requests().size() - 1);
        assertEquals("Systran/faster-whisper-small", request.model());
        assertNull(request.language());
        assertEquals(16000, request.sampleRate());
    }

    @Test
    void aRefusedKeyPerUtteranceEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.BAD_KEY);
        scenarios.failure(WHISPER, keys(), "openai", true, "answered 401", "auth");
    }

    @Test
    void aRateLimitPerUtteranceEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.RATE_LIMITED);
        scenarios.failure(WHISPER, keys(), "openai", true, "answered 429", "rate-limited");
    }

    @Test
    void aServerErrorPerUtteranceEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.REFUSE_500);
        scenarios.failure(WHISPER, keys(), "openai", true, "answered 500", "unavailable");
    }

    @Test
    void aTranscriptionNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.HANG);
        scenarios.failure(WHISPER, keys(), "openai", true, "no transcription within 3000 ms", "timeout");
    }

    @Test
    void aTranscriptionThatIsNotJsonEndsTheCall() throws Exception {
        FakeProviders.openAiTranscription().failure(FakeOpenAiTranscription.Failure.GARBAGE);
        scenarios.failure(WHISPER, keys(), "openai", true, "answered a transcription that is not JSON", "protocol");
    }
}
