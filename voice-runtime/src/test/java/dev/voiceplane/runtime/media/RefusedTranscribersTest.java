package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The transcribers the API accepts and this runtime cannot run right ({@code azure}: Azure Speech's streaming
 * protocol is not published; {@code google}: a Gemini model asked by an unpublished prompt, and Google's streaming
 * speech API is gRPC only): a call naming one ends at its start with {@code assistant-error}, its transcript saying
 * why, before any provider is asked or anything is played.
 */
@QuarkusTest
class RefusedTranscribersTest {

    @InjectWireMock
    WireMockServer wireMock;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"provider\":\"azure\",\"language\":\"en-US\"} | azure | its SDK's own WebSocket protocol, which Microsoft"
                    + " does not publish",
            "{\"provider\":\"google\",\"model\":\"gemini-2.5-flash\",\"language\":\"English\"} | google | streams only"
                    + " over gRPC"})
    void aTranscriberThatCannotRunRightEndsTheCallAtItsStartSayingWhy(String transcriber, String provider,
            String why) throws Exception {
        StubbedCalls calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, TranscriberScenarios.assistant(transcriber, ",\"firstMessage\":\"Hello.\""),
                TranscriberScenarios.keys());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(TranscriberScenarios.BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), closed.toString());
            assertEquals(0, caller.receivedAudio().length, "nothing was played");
        }
        Eventually.until("the end", TranscriberScenarios.BOUND, () -> calls.ended(callId) != null);
        assertEquals("assistant-error", calls.ended(callId).path("endedReason").asText());
        assertTrue(calls.transcript(callId).stream().anyMatch(line -> line.startsWith("system: ")
                && line.contains("transcriber provider " + provider + " is not supported by this runtime: ")
                && line.contains(why)), calls.transcript(callId).toString());
    }
}
