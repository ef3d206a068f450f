package dev.voiceplane.runtime.media;

import dev.voiceplane.runtime.audio.AudioFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.util.Locale;
import java.util.Map;

/**
 * A Vonage WebSocket (NCCO {@code connect} → {@code websocket}, {@code audio/l16;rate=16000}) seen as a
 * {@link MediaChannel}: the assistant's audio goes out as binary frames of PCM16 LE 16 kHz mono, one 20 ms frame
 * (640 bytes) each; a barge-in as the text message {@code {"action":"clear"}}, which Vonage answers with
 * {@code {"event":"websocket:cleared"}} once its buffer is empty. Vonage names no marks back, so what the caller has
 * heard is the played-out clock's (docs/voice-runtime.md, "Vonage media").
 */
final class VonageChannel implements MediaChannel {

    /** The only format the runtime asks Vonage for (telephony-service's NCCO). */
    static final String CONTENT_TYPE = "audio/l16;rate=16000";

    private static final String CLEAR = "{\"action\":\"clear\"}";

    private final ServerWebSocket socket;

    VonageChannel(ServerWebSocket socket) {
        this.socket = socket;
    }

    /** Whether a {@code websocket:connected} content type is ours ({@code audio/l16;rate=16000}, spaces aside). */
    static boolean supported(String contentType) {
        return contentType != null
                && CONTENT_TYPE.equals(contentType.replace(" ", "").toLowerCase(Locale.ROOT));
    }

    @Override
    public AudioFormat format() {
        return AudioFormat.PCM16_16K;
    }

    @Override
    public void sendAudio(byte[] frame) {
        if (!socket.isClosed()) {
            socket.writeBinaryMessage(Buffer.buffer(frame));
        }
    }

    @Override
    public void sendMark(String name) {
        // Vonage has no marks: the conversation's played-out clock says when the audio before this point has played.
    }

    @Override
    public boolean echoesMarks() {
        return false;
    }

    @Override
    public void clear() {
        if (!socket.isClosed()) {
            socket.writeTextMessage(CLEAR);
        }
    }

    @Override
    public void sendMessage(Map<String, Object> message) {
        // Carriers take audio only; the assistant's client messages go to web calls.
    }

    @Override
    public void close(String reason) {
        MediaSockets.close(socket, (short) 1000, reason);
    }
}
