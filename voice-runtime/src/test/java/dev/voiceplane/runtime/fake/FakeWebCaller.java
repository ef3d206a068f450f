package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A caller in a browser, on the runtime's web-call WebSocket.
 *
 * <p>Protocol (the runtime's web-call protocol): audio both ways as binary messages of PCM16 LE, 16 kHz, mono, one
 * 20 ms frame (640 bytes) per message; the caller sends a frame every 20 ms (silence, zeros, unless {@link #say}
 * speech is playing). JSON text control messages from the runtime: {@code {"type":"mark","name"}} (echoed back the
 * same once the audio before it has played), {@code {"type":"clear"}} (drops the queued audio; the marks dropped with
 * it are not echoed); any other JSON message ({@code started}, {@code transcript} and the other client messages,
 * {@code ended}, {@code error}) is recorded in {@link #messages}. The caller ends the call with
 * {@code {"type":"hangup"}} ({@link #hangUp()}). The protocol is docs/web-calls.md. See {@link FakeCaller} for what is recorded.
 */
public final class FakeWebCaller extends FakeCaller {

    private FakeWebCaller(Vertx vertx) {
        super(vertx, 640, (byte) 0);
    }

    /** Connects to the web call URL (its capability in the URL) with its own Vert.x. */
    public static FakeWebCaller connect(String url) {
        return connect(null, url, Map.of());
    }

    /**
     * Connects on {@code vertx} (null: its own) with extra upgrade {@code headers}. Throws IllegalStateException (cause:
     * the client's, e.g. UpgradeRejectedException) when refused.
     */
    public static FakeWebCaller connect(Vertx vertx, String url, Map<String, String> headers) {
        FakeWebCaller caller = new FakeWebCaller(vertx);
        caller.open(url, headers);
        return caller;
    }

    /** Sends a control message, e.g. {@code {"type":"hangup"}}. */
    public void send(JsonObject message) {
        sendText(message.encode());
    }

    /** The caller ends the call: {@code {"type":"hangup"}}, then the close. */
    public CompletableFuture<Closed> hangUp() {
        return hangUp(() -> new JsonObject().put("type", "hangup").encode());
    }

    @Override
    void opened() {
        // Nothing to announce: the capability in the URL identifies the call.
    }

    @Override
    void sendAudio(byte[] frame) {
        writeBinary(Buffer.buffer(frame));
    }

    @Override
    void echoMark(String name) {
        send(new JsonObject().put("type", "mark").put("name", name));
    }

    @Override
    void text(String message) {
        JsonObject json;
        try {
            json = new JsonObject(message);
        } catch (RuntimeException e) {
            record(new JsonObject().put("unparseable", message));
            return;
        }
        switch (json.getString("type", "")) {
            case "mark" -> mark(json.getString("name"));
            case "clear" -> clear();
            default -> record(json);
        }
    }

    @Override
    boolean echoMarksOnClear() {
        return false;
    }

    @Override
    void binary(byte[] message) {
        audio(message);
    }

    @Override
    boolean silent(byte[] audio) {
        for (short sample : SpeechFixtures.decodePcm16le(audio, 0, audio.length)) {
            if (Math.abs(sample) > 200) {
                return false;
            }
        }
        return true;
    }
}
