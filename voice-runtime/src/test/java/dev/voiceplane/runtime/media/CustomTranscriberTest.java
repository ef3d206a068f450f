package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static dev.voiceplane.runtime.media.TranscriberScenarios.ANSWER;
import static dev.voiceplane.runtime.media.TranscriberScenarios.QUESTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCustomTranscriber;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code transcriber.provider: custom-transcriber}: the customer's own server, spoken to with the hosted platform's
 * protocol, without any credential; phone and web calls, a barge-in, a server without a URL, and each way the server
 * fails.
 */
@QuarkusTest
class CustomTranscriberTest {

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
        // The organisations have no custom-transcriber credential: credential-service answers an empty list.
        StubbedCalls.noCredential(wireMock, "custom-transcriber");
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.NONE).secret("s3cret")
                .alsoAssistant(null).script(QUESTION);
    }

    @AfterEach
    void tearDown() {
        logs.close();
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.NONE).alsoAssistant(null);
    }

    private static String transcriber(String secret) {
        return "{\"provider\":\"custom-transcriber\",\"server\":{\"url\":\""
                + FakeProviders.customTranscriber().url().replace("ws://", "http://") + "\",\"secret\":\"" + secret
                + "\",\"headers\":{\"X-Tenant\":\"harbour\"}}}";
    }

    @Test
    void aPhoneCallIsTranscribedByTheCustomersServer() throws Exception {
        FakeCustomTranscriber server = FakeProviders.customTranscriber().alsoAssistant("Harbour Cafe, hello.");
        int startsBefore = server.starts().size();
        double audioBefore = server.audioSeconds();
        TranscriberScenarios.Call call = scenarios.phoneCall(transcriber("s3cret"), TranscriberScenarios.keys());

        assertEquals(List.of("bot: Harbour Cafe, hello.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript(),
                "the assistant channel's transcriptions are not the caller's");
        assertEquals(QUESTION, call.heardByModel());
        assertEquals("s3cret", server.lastHeaders().get("x-vapi-secret"));
        assertEquals("harbour", server.lastHeaders().get("X-Tenant"));
        assertNull(server.lastHeaders().get("Authorization"), "the organisation has no custom-transcriber key");
        List<JsonObject> starts = server.starts();
        assertEquals(startsBefore + 1, starts.size());
        assertEquals(new JsonObject().put("type", "start").put("encoding", "linear16").put("container", "raw")
                .put("sampleRate", 16000).put("channels", 2), starts.get(starts.size() - 1));
        double sttSeconds = call.ended().path("usage").path("sttSeconds").asDouble();
        assertTrue(sttSeconds > 1, call.ended().toString());
        Eventually.until("the usage to be the audio the server got (" + sttSeconds + " s)",
                () -> Math.abs(server.audioSeconds() - audioBefore - sttSeconds) < 0.05);
    }

    @Test
    void aWebCallIsTranscribedByTheCustomersServer() throws Exception {
        TranscriberScenarios.Call call = scenarios.webCall(transcriber("s3cret"), TranscriberScenarios.keys());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER), call.transcript());
    }

    @Test
    void theCallerInterruptsTheAssistant() throws Exception {
        FakeProviders.customTranscriber().script("Tell me about the menu.", "Just the prices please.");
        scenarios.bargeIn(transcriber("s3cret"), TranscriberScenarios.keys());
    }

    @Test
    void anAssistantWithoutAServerUrlCannotStart() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, TranscriberScenarios.assistant("{\"provider\":\"custom-transcriber\"}",
                ",\"firstMessage\":\"Hello.\""), TranscriberScenarios.keys());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            assertTrue(caller.closed().get(TranscriberScenarios.BOUND.toSeconds(), TimeUnit.SECONDS).byRuntime());
        }
        assertEquals("assistant-error", calls.ended(callId).path("endedReason").asText());
        List<String> transcript = calls.transcript(callId);
        assertTrue(transcript.get(transcript.size() - 1).contains(
                "transcriber provider custom-transcriber needs transcriber.server.url"), transcript.toString());
    }

    @Test
    void aWrongSecretEndsTheCall() throws Exception {
        scenarios.failure(transcriber("wrong"), TranscriberScenarios.keys(), "custom-transcriber", false,
                "refused the stream (401)", "auth");
    }

    @Test
    void tooManyRequestsEndsTheCall() throws Exception {
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.REFUSE_429);
        scenarios.failure(transcriber("s3cret"), TranscriberScenarios.keys(), "custom-transcriber", false,
                "refused the stream (429)", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.REFUSE_500);
        scenarios.failure(transcriber("s3cret"), TranscriberScenarios.keys(), "custom-transcriber", false,
                "refused the stream (500)", "unavailable");
    }

    @Test
    void anUpgradeNeverAnsweredEndsTheCall() throws Exception {
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.HANG_UPGRADE);
        scenarios.failure(transcriber("s3cret"), TranscriberScenarios.keys(), "custom-transcriber", false,
                "did not open the stream within 3000 ms", "timeout");
    }

    @Test
    void garbageEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.GARBAGE);
        scenarios.failure(transcriber("s3cret"), TranscriberScenarios.keys(), "custom-transcriber", true,
                "sent a message that is not JSON", "protocol");
    }

    @Test
    void theServersErrorMessageEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.ERROR_MESSAGE);
        scenarios.failure(transcriber("s3cret"), TranscriberScenarios.keys(), "custom-transcriber", true,
                "reported an error", "unavailable");
    }

    @Test
    void aServerThatClosesMidCallEndsTheCallKeepingTheGreeting() throws Exception {
        FakeProviders.customTranscriber().failure(FakeCustomTranscriber.Failure.CLOSE_MID_STREAM);
        scenarios.failure(transcriber("s3cret"), TranscriberScenarios.keys(), "custom-transcriber", true,
                "closed the stream (1011 transcription backend went away)", "unavailable");
    }
}
