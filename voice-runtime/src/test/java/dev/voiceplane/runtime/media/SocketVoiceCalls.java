package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import io.restassured.RestAssured;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What the conversation tests of the WebSocket voices (Cartesia, Deepgram's Aura) share: an assistant on the fake
 * transcriber and model with the voice under test, web calls, and how a call that ended because of a provider must
 * look to call-service and the carrier.
 */
final class SocketVoiceCalls {

    static final Duration BOUND = Duration.ofSeconds(30);

    private static boolean warm;

    private final WireMockServer wireMock;
    private final StubbedCalls calls;

    SocketVoiceCalls(WireMockServer wireMock, StubbedCalls calls) {
        this.wireMock = wireMock;
        this.calls = calls;
    }

    /**
     * The first call to call-service in a fresh JVM on a loaded machine can outlast the peer timeout (2 s: clients,
     * JSON and fault tolerance are initialised then), and these classes may run first: one refused attach warms them
     * (as {@code VonageMediaTest} does).
     */
    void warmUp() throws Exception {
        if (warm) {
            return;
        }
        warm = true;
        UUID callId = UUID.randomUUID();
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"warm-up\",\"error\":\"Conflict\",\"statusCode\":409}")));
        try (FakeCaller caller = calls.phoneCall(null, callId, "org-warm-up")) {
            caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** {@link StubbedCalls#assistant} speaking with {@code voice} (the voice object's JSON) instead of ElevenLabs. */
    static String assistant(String voice, String extra) {
        return AssistantJson.onFakes().voice(voice).with(extra).json();
    }

    /** A web call (PCM16 16 kHz) the runtime may attach to, in an organisation whose credentials are given. */
    String webCall(UUID callId, String assistant, Map<String, String> credentials) {
        String org = calls.call(callId, assistant, credentials);
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"webCall\"},\"assistant\":"
                                + assistant + ",\"variableValues\":{}}")));
        return org;
    }

    FakeWebCaller webCaller(UUID callId, String org) {
        return FakeWebCaller.connect("ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token="
                + calls.token(callId, org));
    }

    /** Waits until the caller heard audio and has played all of it (every mark echoed). */
    static void heardAndPlayed(FakeCaller caller, String what) {
        Eventually.until(what + " to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                && !caller.playing() && !caller.receivedMarks().isEmpty()
                && caller.echoedMarks().size() == caller.receivedMarks().size());
    }

    /**
     * The carrier saw a normal close by the runtime, after {@code ended} (assistant-error, the last event, no event
     * lost) was reported; the transcript's last line and a log line name the provider; nothing uncaught was logged;
     * the gauge of live calls is back at 0.
     */
    void assertEndedCleanly(StubbedCalls.LogCapture logs, UUID callId, FakeCaller caller, String stage,
            String provider) throws Exception {
        FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
        JsonNode ended = calls.ended(callId);
        assertNotNull(ended, "ended was reported before the stream was closed");
        List<JsonNode> events = calls.events(callId);
        assertEquals("assistant-error", ended.path("endedReason").asText(), ended.toString());
        assertEquals(ended, events.get(events.size() - 1), "ended is the last event");
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost: " + events);
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("system: The call ended: the " + stage + " (" + provider + ") failed.",
                transcript.get(transcript.size() - 1), transcript.toString());
        assertTrue(logs.logged("(provider " + provider + ") failed"), "a log line names the provider");
        Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
        assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
    }
}
