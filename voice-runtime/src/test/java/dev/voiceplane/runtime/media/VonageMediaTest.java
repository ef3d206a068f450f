package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeVonageCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Calls over Vonage's WebSocket ({@link FakeVonageCaller}: {@code websocket:connected} with the NCCO's headers, then
 * binary PCM16 16 kHz frames; {@code {"action":"clear"}} answered with {@code websocket:cleared}; no marks) on the same
 * stream URL as Twilio's, with the same pipeline and the same checks: a held turn to the end-call phrase, barge-in
 * (what was heard decided by the played-out clock alone), the caller's hang-up, and who gets in.
 */
@QuarkusTest
class VonageMediaTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    /** PCM16 at 16 kHz: bytes per second. */
    private static final int BYTES_PER_SECOND = 32_000;

    @InjectWireMock
    WireMockServer wireMock;

    private static boolean warm;

    /**
     * The first call to call-service in a fresh JVM on a loaded machine can outlast the peer timeout (2 s: clients,
     * JSON and fault tolerance are initialised then), and this class may run first: one refused attach warms them.
     */
    @org.junit.jupiter.api.BeforeEach
    void warmUp() throws Exception {
        if (warm) {
            return;
        }
        warm = true;
        UUID callId = UUID.randomUUID();
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"warm-up\",\"error\":\"Conflict\",\"statusCode\":409}")));
        try (FakeVonageCaller caller = vonageCall(callId, TestKeys.ORG_A)) {
            caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private StubbedCalls calls() {
        return new StubbedCalls(wireMock);
    }

    private FakeVonageCaller vonageCall(UUID callId, String org) {
        return FakeVonageCaller.connect(StubbedCalls.streamUrl(), Map.of("callId", callId.toString(), "orgId", org,
                "token", calls().token(callId, org)));
    }

    private static double refused(String reason) {
        String prefix = "voice_runtime_media_refused_total{reason=\"" + reason + "\"}";
        for (String line : RestAssured.get("/q/metrics").asString().split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    @Test
    void aVonageCallIsHeldFromGreetingToTheEndCallPhrase() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessage\":\"Harbour Cafe, how can I help?\","
                + "\"endCallPhrases\":[\"goodbye\"]"));
        FakeProviders.deepgram().script("What time do you open tomorrow?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine tomorrow. Goodbye!"));

        try (FakeVonageCaller caller = vonageCall(callId, org)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            assertEquals(List.of("bot: Harbour Cafe, how can I help?"), calls.transcript(callId));
            Eventually.until("the greeting to finish playing", BOUND, () -> caller.firstAudioNanos() > 0
                    && !caller.playing());

            FakeCaller.Utterance question = caller.say(SpeechFixtures.pcm16k("What time do you open tomorrow?"));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "the reply was heard after the question ended");

            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up after the end-call phrase");
            assertEquals((short) 1000, closed.code());
            // Reported before the socket was closed: the ended event is there the moment the close is.
            JsonNode ended = calls.ended(callId);
            assertNotNull(ended, "ended was reported before the stream closed");
            assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText());

            assertTrue(caller.receivedMarks().isEmpty(), "Vonage has no marks: none is sent");
            assertTrue(caller.messages().isEmpty(), "nothing but audio was sent: " + caller.messages());
            assertEquals(0, caller.receivedAudio().length % 640, "the audio came in whole 20 ms frames");
            assertTrue(caller.receivedAudio().length > BYTES_PER_SECOND, "the greeting and the reply were sent");
        }
        List<JsonNode> events = calls.events(callId);
        assertEquals(List.of("bot: Harbour Cafe, how can I help?", "user: What time do you open tomorrow?",
                "bot: We open at nine tomorrow. Goodbye!"), calls.transcript(callId));
        assertEquals("ended", events.get(events.size() - 1).path("type").asText(), "ended is the last event");
        assertTrue(events.get(events.size() - 1).path("usage").path("sttSeconds").asDouble() > 1);
        // PCM16 16 kHz end to end: the transcriber took Vonage's audio as sent, the voice was asked for it.
        assertEquals("linear16", FakeProviders.deepgram().lastQuery("encoding"));
        assertEquals("16000", FakeProviders.deepgram().lastQuery("sample_rate"));
        assertEquals("What time do you open tomorrow?", FakeOpenAi.lastUserMessage(FakeProviders.openai().lastRequest()));
        List<FakeElevenLabs.Request> spoken = FakeProviders.elevenlabs().requests();
        assertEquals("pcm_16000", spoken.get(spoken.size() - 1).outputFormat());
    }

    /**
     * The caller talks over a long reply. Vonage names no marks back, so what the transcript and the model keep is
     * what the played-out clock says was heard: checked against the audio the caller really played before the
     * clear — every piece played through is kept, no piece that had not started is.
     */
    @Test
    void theCallerInterruptsAndTheTranscriptKeepsWhatThePlayedOutClockSaysWasHeard() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\""));
        String reply = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
                + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
        FakeProviders.deepgram().script("Tell me about the menu.", "Just the prices please.");
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text(reply) : new FakeOpenAi.Text("Everything is under ten pounds."));
        int spokenBefore = FakeProviders.elevenlabs().requests().size();

        int played;
        try (FakeVonageCaller caller = vonageCall(callId, org)) {
            caller.say(SpeechFixtures.pcm16k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            // Long enough for the first piece (about 1.6 s of speech) to have played through, not the whole reply.
            Eventually.until("two and a half seconds of the reply to play", BOUND,
                    () -> caller.playedAudio().length > BYTES_PER_SECOND * 5 / 2);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.pcm16k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            // The clear emptied the caller's queue: what it played until then is what it heard of the reply.
            played = caller.playedAudio().length;
            assertTrue(caller.messages().stream().anyMatch(m -> "clear".equals(m.getString("action"))),
                    "the clear is Vonage's {\"action\":\"clear\"}: " + caller.messages());
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> calls.transcript(callId).size() == 4);
            assertTrue(caller.receivedMarks().isEmpty());
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("user: Tell me about the menu.", transcript.get(0));
        String heard = transcript.get(1).substring("bot: ".length());
        assertTrue(reply.startsWith(heard) && heard.length() < reply.length(),
                "the interrupted reply keeps a beginning of what was said: " + heard);
        assertEquals("user: Just the prices please.", transcript.get(2));
        assertEquals("bot: Everything is under ten pounds.", transcript.get(3));

        // The pieces the voice was asked for and where each starts and ends in the caller's playback.
        List<String> pieces = FakeProviders.elevenlabs().requests()
                .subList(spokenBefore, FakeProviders.elevenlabs().requests().size()).stream()
                .map(FakeElevenLabs.Request::text).filter(text -> reply.contains(text.trim()))
                // Requested in parallel, so recorded in any order; played in the reply's.
                .sorted(java.util.Comparator.comparingInt(text -> reply.indexOf(text.trim()))).toList();
        double playedSeconds = (double) played / BYTES_PER_SECOND;
        double start = 0;
        double tolerance = 0.4;
        List<String> checked = new ArrayList<>();
        for (String piece : pieces) {
            String text = piece.trim();
            int at = reply.indexOf(text);
            double end = start + (double) SpeechFixtures.pcm16k(piece).length / BYTES_PER_SECOND;
            if (end <= playedSeconds - tolerance) {
                assertTrue(heard.length() >= at + text.length(), "\"" + text + "\" had played (until " + end
                        + " s of " + playedSeconds + " s) and is kept: " + heard);
                checked.add("played " + text);
            } else if (start >= playedSeconds + tolerance) {
                assertTrue(heard.length() <= at, "\"" + text + "\" had not started (at " + start + " s of "
                        + playedSeconds + " s) and nothing of it is kept: " + heard);
                checked.add("unplayed " + text);
            }
            start = end;
        }
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("played")), "a piece played through: " + checked);
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("unplayed")), "a piece never started: " + checked);

        var second = FakeProviders.openai().lastRequest().getJsonArray("messages");
        assertEquals(heard, second.getJsonObject(second.size() - 2).getString("content"),
                "the model hears only what the caller heard");
    }

    @Test
    void theCallerHangsUpAndTheCallEndsAsTheCustomers() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessage\":\"Hello.\""));
        try (FakeVonageCaller caller = vonageCall(callId, org)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            caller.dtmf('5');
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
        Eventually.until("no call left live", BOUND, () -> StubbedCalls.liveCalls() == 0);
    }

    // ---- who gets in ------------------------------------------------------------------------------------------

    private int requestsAbout(UUID callId) {
        return wireMock.findAll(anyRequestedFor(urlMatching("/internal/call/" + callId + "/.*"))).size();
    }

    @Test
    void aVonageStreamWithoutAValidTokenIsRefusedAndTouchesNoCall() throws Exception {
        UUID callId = UUID.randomUUID();
        String valid = calls().token(callId, TestKeys.ORG_A);
        double before = refused("token");
        List<Map<String, String>> headers = List.of(
                Map.of("callId", callId.toString(), "orgId", TestKeys.ORG_A),
                Map.of("callId", callId.toString(), "orgId", TestKeys.ORG_A, "token", valid + "x"),
                Map.of("callId", UUID.randomUUID().toString(), "orgId", TestKeys.ORG_A, "token", valid),
                Map.of("callId", callId.toString(), "orgId", TestKeys.ORG_B, "token", valid));
        for (Map<String, String> header : headers) {
            try (FakeVonageCaller caller = FakeVonageCaller.connect(StubbedCalls.streamUrl(), header)) {
                FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertEquals((short) 1008, closed.code(), header.toString());
                assertTrue(closed.byRuntime());
            }
        }
        assertEquals(0, requestsAbout(callId), "no refused stream reached call-service");
        assertEquals(before + headers.size(), refused("token"), "each refusal is counted");
    }

    @Test
    void aVonageStreamInAnotherFormatIsRefused() throws Exception {
        UUID callId = UUID.randomUUID();
        double before = refused("format");
        try (FakeVonageCaller caller = FakeVonageCaller.connect(null, StubbedCalls.streamUrl(), Map.of(
                "callId", callId.toString(), "orgId", TestKeys.ORG_A, "token", calls().token(callId, TestKeys.ORG_A)),
                "audio/l16;rate=8000")) {
            assertEquals((short) 1008, caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS).code());
        }
        assertEquals(0, requestsAbout(callId));
        assertEquals(before + 1, refused("format"));
    }

    @Test
    void aSecondVonageStreamForTheSameCallIsRefused() throws Exception {
        UUID callId = UUID.randomUUID();
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"a voice runtime attached to the call already\",\"error\":\"Conflict\","
                                + "\"statusCode\":409}")));
        double before = refused("attach");
        try (FakeVonageCaller caller = vonageCall(callId, TestKeys.ORG_A)) {
            assertEquals((short) 1008, caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS).code());
        }
        assertEquals(before + 1, refused("attach"));
        assertEquals(0, wireMock.findAll(anyRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/events")))
                .size(), "a refused stream reports nothing");
    }

    @Test
    void aVonageStreamThatNeverConnectsIsClosed() throws Exception {
        MediaAdmissionTestSockets sockets = new MediaAdmissionTestSockets();
        try {
            assertEquals(1008, sockets.silent());
            assertEquals(1007, sockets.binaryFirst());
            assertEquals(1007, sockets.oddFrameAfterConnected(calls()));
        } finally {
            sockets.close();
        }
    }

    /** Raw sockets for the refusals a well-behaved caller cannot produce. */
    private static final class MediaAdmissionTestSockets {
        private final io.vertx.core.Vertx vertx = io.vertx.core.Vertx.vertx();

        private MediaAdmissionTest.Socket connect() throws Exception {
            return new MediaAdmissionTest.Socket(vertx.createWebSocketClient().connect(
                    new io.vertx.core.http.WebSocketConnectOptions().setHost("localhost").setPort(RestAssured.port)
                            .setURI(MediaSockets.STREAM_PATH)).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS));
        }

        /** Opens and says nothing: closed after the start timeout. */
        short silent() throws Exception {
            return connect().closeCode();
        }

        /** Audio before {@code websocket:connected}. */
        short binaryFirst() throws Exception {
            MediaAdmissionTest.Socket socket = connect();
            socket.socket.writeBinaryMessage(io.vertx.core.buffer.Buffer.buffer(new byte[640]));
            return socket.closeCode();
        }

        /** A frame of 641 bytes (not PCM16) right after a valid opening, while the call is being attached. */
        short oddFrameAfterConnected(StubbedCalls calls) throws Exception {
            UUID callId = UUID.randomUUID();
            String org = calls.call(callId, StubbedCalls.assistant(""));
            MediaAdmissionTest.Socket socket = connect();
            socket.send(new JsonObject().put("event", "websocket:connected")
                    .put("content-type", FakeVonageCaller.CONTENT_TYPE).put("callId", callId.toString())
                    .put("orgId", org).put("token", calls.token(callId, org)).encode());
            socket.socket.writeBinaryMessage(io.vertx.core.buffer.Buffer.buffer(new byte[641]));
            return socket.closeCode();
        }

        void close() {
            vertx.close();
        }
    }
}
