package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A caller on the phone, as Vonage's Voice API presents it to a WebSocket endpoint of an NCCO {@code connect}
 * ({@code "content-type": "audio/l16;rate=16000"}, with {@code headers}).
 *
 * <p>Sent: first the text message {@code {"event":"websocket:connected","content-type":"audio/l16;rate=16000",
 * <the NCCO's headers, at the top level>}}, then every 20 ms a binary message of 640 bytes, PCM16 LE 16 kHz mono
 * (silence, zeros, unless {@link #say} speech is playing); {@link #dtmf} sends
 * {@code {"event":"websocket:dtmf","digit":"5","duration":260}}. The caller hangs up by closing the socket
 * normally ({@link #hangUp()}): Vonage sends nothing before it.
 *
 * <p>Received: binary audio (played in real time), {@code {"action":"clear"}} (drops the queued audio and answers
 * {@code {"event":"websocket:cleared"}}); Vonage has no marks, so none is ever echoed. Every other text message is
 * recorded in {@link #messages}. See {@link FakeCaller} for what is recorded.
 */
public final class FakeVonageCaller extends FakeCaller {

    public static final String CONTENT_TYPE = "audio/l16;rate=16000";

    private final Map<String, String> headers;
    private final String contentType;

    private FakeVonageCaller(Vertx vertx, Map<String, String> headers, String contentType) {
        super(vertx, 640, (byte) 0);
        this.headers = Map.copyOf(headers);
        this.contentType = contentType;
    }

    /** Connects with its own Vert.x ({@code headers} as the NCCO's websocket headers). */
    public static FakeVonageCaller connect(String url, Map<String, String> headers) {
        return connect(null, url, headers, CONTENT_TYPE);
    }

    /**
     * Connects on {@code vertx} (null: its own), announcing {@code contentType}. Throws IllegalStateException (cause:
     * the client's, e.g. UpgradeRejectedException) when refused.
     */
    public static FakeVonageCaller connect(Vertx vertx, String url, Map<String, String> headers,
            String contentType) {
        FakeVonageCaller caller = new FakeVonageCaller(vertx, headers, contentType);
        caller.open(url, Map.of());
        return caller;
    }

    /** Sends a DTMF digit, as Vonage does when the caller presses a key. */
    public void dtmf(char digit) {
        sendText(new JsonObject().put("event", "websocket:dtmf").put("digit", String.valueOf(digit))
                .put("duration", 260).encode());
    }

    /** The caller hangs up: Vonage closes the socket normally, with no message before. */
    public CompletableFuture<Closed> hangUp() {
        return hangUp(null);
    }

    @Override
    void opened() {
        JsonObject connected = new JsonObject().put("event", "websocket:connected").put("content-type", contentType);
        headers.forEach(connected::put);
        sendText(connected.encode());
    }

    @Override
    void sendAudio(byte[] frame) {
        writeBinary(Buffer.buffer(frame));
    }

    @Override
    void echoMark(String name) {
        throw new IllegalStateException("Vonage has no marks, so none is echoed");
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
        if ("clear".equals(json.getString("action"))) {
            record(json);
            clear();
            sendText(new JsonObject().put("event", "websocket:cleared").encode());
            return;
        }
        record(json);
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
