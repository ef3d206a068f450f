package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.Eventually;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fake Deepgram, driven by a plain Vert.x WebSocket client with real (espeak-ng) speech. */
class FakeDeepgramTest {

    private static final String MULAW = "?encoding=mulaw&sample_rate=8000&channels=1&interim_results=true"
            + "&endpointing=10&utterance_end_ms=1000&vad_events=true&language=en&model=nova-3&keywords=Acme:2";

    private static Vertx vertx;
    private FakeDeepgram deepgram;

    @BeforeAll
    static void vertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() {
        vertx.close();
    }

    @AfterEach
    void close() {
        deepgram.close();
    }

    /** A client connection and what it received. */
    private record Client(WebSocket ws, List<String> texts, CompletableFuture<Short> closed) {
        List<JsonObject> json() {
            return texts.stream().map(JsonObject::new).toList();
        }

        List<JsonObject> finals() {
            return json().stream().filter(m -> m.getBoolean("is_final", false)).toList();
        }

        void send(byte[] audio, int frameBytes) {
            for (int from = 0; from < audio.length; from += frameBytes) {
                ws.writeBinaryMessage(Buffer.buffer(java.util.Arrays.copyOfRange(audio, from,
                        Math.min(audio.length, from + frameBytes))));
            }
        }
    }

    private Client connect(String query, String authorization) throws Exception {
        List<String> texts = new CopyOnWriteArrayList<>();
        CompletableFuture<Short> closed = new CompletableFuture<>();
        WebSocket ws = vertx.createWebSocketClient().connect(new WebSocketConnectOptions().setHost("127.0.0.1")
                .setPort(deepgram.port()).setURI("/v1/listen" + query).addHeader("Authorization", authorization))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        ws.textMessageHandler(texts::add);
        ws.closeHandler(v -> closed.complete(ws.closeStatusCode()));
        return new Client(ws, texts, closed);
    }

    @Test
    void speechGivesSpeechStartedInterimsAndTheScriptedFinal() throws Exception {
        deepgram = new FakeDeepgram("dg-key").script("Hello there.");
        Client client = connect(MULAW, "Token dg-key");
        byte[] speech = SpeechFixtures.mulaw8k("hello there");
        client.send(speech, 160);
        client.send(SpeechFixtures.mulawSilence(1200), 160);

        Eventually.until("the final and the utterance end", () -> client.texts().stream()
                .anyMatch(t -> t.contains("UtteranceEnd")));
        List<JsonObject> messages = client.json();
        assertEquals("SpeechStarted", messages.get(0).getString("type"));
        JsonObject last = messages.get(messages.size() - 1);
        assertEquals("UtteranceEnd", last.getString("type"));
        List<JsonObject> finals = client.finals();
        assertEquals(1, finals.size(), "one segment, one final: " + client.texts());
        JsonObject fin = finals.get(0);
        assertEquals("Results", fin.getString("type"));
        assertTrue(fin.getBoolean("speech_final"));
        JsonObject alternative = fin.getJsonObject("channel").getJsonArray("alternatives").getJsonObject(0);
        assertEquals("Hello there.", alternative.getString("transcript"));
        assertEquals(2, alternative.getJsonArray("words").size());
        assertEquals("there", alternative.getJsonArray("words").getJsonObject(1).getString("word"));
        assertEquals("there.", alternative.getJsonArray("words").getJsonObject(1).getString("punctuated_word"));
        List<JsonObject> interims = messages.stream()
                .filter(m -> "Results".equals(m.getString("type")) && !m.getBoolean("is_final")).toList();
        assertFalse(interims.isEmpty(), "interim results every 200 ms of speech");
        assertTrue(interims.stream().allMatch(m -> "Hello there.".startsWith(m.getJsonObject("channel")
                .getJsonArray("alternatives").getJsonObject(0).getString("transcript"))));
        assertTrue(messages.indexOf(fin) > messages.indexOf(interims.get(interims.size() - 1)));
        assertTrue(fin.getDouble("duration") > 0.3);

        assertEquals("mulaw", deepgram.lastQuery("encoding"));
        assertEquals("Acme:2", deepgram.lastQuery("keywords"));
        assertEquals("Token dg-key", deepgram.lastAuthorization());
        assertEquals(1, deepgram.connections());
        assertEquals(SpeechFixtures.mulawSeconds(speech.length) + 1.2, deepgram.audioSeconds(), 0.01);
    }

    @Test
    void pcm16AndPerConnectionScripts() throws Exception {
        deepgram = new FakeDeepgram("k").script("default one", "default two").scriptFor(1, "second connection");
        String query = "?encoding=linear16&sample_rate=16000&channels=1";
        assertThrows(ExecutionException.class, () -> connect(query, "Token refused"), "a refused one does not count");
        Client first = connect(query, "Token k");
        Client second = connect(query, "Token k");
        byte[] speech = SpeechFixtures.pcm16k("what is the weather like today");
        for (Client client : List.of(first, second)) {
            client.send(speech, 640);
            client.send(SpeechFixtures.pcmSilence(400, 16000), 640);
            client.send(speech, 640);
            client.send(SpeechFixtures.pcmSilence(400, 16000), 640);
        }
        Eventually.until("two finals each", () -> first.finals().size() == 2 && second.finals().size() == 2);
        assertEquals(List.of("default one", "default two"), transcripts(first.finals()));
        assertEquals(List.of("second connection", ""), transcripts(second.finals()),
                "past the end of the script, segments are empty");
        assertFalse(first.texts().stream().anyMatch(t -> t.contains("SpeechStarted")), "vad_events not asked");
        assertEquals(3, deepgram.connections());
    }

    @Test
    void finalizeFlushesThePendingSegmentAtOnce() throws Exception {
        deepgram = new FakeDeepgram("k").script("flushed early");
        Client client = connect("?encoding=mulaw&sample_rate=8000&endpointing=false", "Token k");
        client.send(SpeechFixtures.mulaw8k("hello there"), 160);
        client.send(SpeechFixtures.mulawSilence(300), 160);
        client.ws().writeTextMessage("{\"type\":\"KeepAlive\"}");
        client.ws().writeTextMessage("{\"type\":\"Finalize\"}");
        Eventually.until("the finalized result", () -> !client.finals().isEmpty());
        JsonObject fin = client.finals().get(0);
        assertTrue(fin.getBoolean("from_finalize"));
        assertEquals(List.of("flushed early"), transcripts(List.of(fin)));

        client.ws().writeTextMessage("{\"type\":\"Finalize\"}");
        Eventually.until("an empty finalized result", () -> client.finals().size() == 2);
        assertEquals("", transcripts(client.finals()).get(1));
        assertEquals(2, deepgram.finalizeCount());
    }

    @Test
    void closeStreamSendsMetadataThenCloses() throws Exception {
        deepgram = new FakeDeepgram("k");
        Client client = connect(MULAW, "Token k");
        client.send(SpeechFixtures.mulawSilence(500), 160);
        client.ws().writeTextMessage("{\"type\":\"CloseStream\"}");
        assertEquals((short) 1000, client.closed().get(10, TimeUnit.SECONDS));
        JsonObject metadata = client.json().get(client.json().size() - 1);
        assertEquals("Metadata", metadata.getString("type"));
        assertEquals(0.5, metadata.getDouble("duration"), 0.001);
    }

    @Test
    void idleConnectionClosedWithNet0001() throws Exception {
        deepgram = new FakeDeepgram("k").idleTimeoutMs(200);
        Client client = connect(MULAW, "Token k");
        assertEquals((short) 1011, client.closed().get(10, TimeUnit.SECONDS));
        assertEquals("NET-0001", client.ws().closeReason());
    }

    @Test
    void wrongKeyAndRefusalsRejectTheUpgrade() {
        deepgram = new FakeDeepgram("k");
        assertEquals(401, rejection("Token wrong"));
        deepgram.failure(FakeDeepgram.Failure.REFUSE_500);
        assertEquals(500, rejection("Token k"));
        deepgram.failure(FakeDeepgram.Failure.REFUSE_401);
        assertEquals(401, rejection("Token k"));
    }

    @Test
    void garbageAndHang() throws Exception {
        deepgram = new FakeDeepgram("k").script("anything").failure(FakeDeepgram.Failure.GARBAGE);
        Client garbage = connect(MULAW, "Token k");
        garbage.send(SpeechFixtures.mulaw8k("hello there"), 160);
        Eventually.until("garbage", () -> !garbage.texts().isEmpty());
        assertThrows(RuntimeException.class, () -> new JsonObject(garbage.texts().get(0)));

        deepgram.failure(FakeDeepgram.Failure.HANG).idleTimeoutMs(100);
        Client hung = connect(MULAW, "Token k");
        hung.send(SpeechFixtures.mulaw8k("hello there"), 160);
        hung.send(SpeechFixtures.mulawSilence(500), 160);
        hung.ws().writeTextMessage("{\"type\":\"Finalize\"}");
        // Nothing comes back, not even the idle close: the bound is the test's, the fake stays silent.
        assertThrows(java.util.concurrent.TimeoutException.class, () -> hung.closed().get(500, TimeUnit.MILLISECONDS));
        assertTrue(hung.texts().isEmpty());
        assertEquals(2, deepgram.connections());
    }

    private int rejection(String authorization) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> connect(MULAW, authorization));
        return assertInstanceOf(UpgradeRejectedException.class, e.getCause()).getStatus();
    }

    private static List<String> transcripts(List<JsonObject> results) {
        return results.stream().map(m -> m.getJsonObject("channel").getJsonArray("alternatives").getJsonObject(0)
                .getString("transcript")).toList();
    }
}
