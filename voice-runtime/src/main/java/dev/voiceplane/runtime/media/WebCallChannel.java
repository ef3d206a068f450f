package dev.voiceplane.runtime.media;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.util.Map;

/**
 * A web call's socket seen as a {@link MediaChannel} (docs/web-calls.md): the assistant's audio as binary frames of
 * PCM16 LE 16 kHz mono, 20 ms each; marks, clears and the assistant's client messages as JSON text frames.
 */
final class WebCallChannel implements MediaChannel {

    private final ServerWebSocket socket;
    private final ObjectMapper json;

    WebCallChannel(ServerWebSocket socket, ObjectMapper json) {
        this.socket = socket;
        this.json = json;
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
        sendMessage(Map.of("type", "mark", "name", name));
    }

    @Override
    public void clear() {
        sendMessage(Map.of("type", "clear"));
    }

    @Override
    public void sendMessage(Map<String, Object> message) {
        if (!socket.isClosed()) {
            try {
                socket.writeTextMessage(json.writeValueAsString(message));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close(String reason) {
        MediaSockets.close(socket, (short) 1000, reason);
    }
}
