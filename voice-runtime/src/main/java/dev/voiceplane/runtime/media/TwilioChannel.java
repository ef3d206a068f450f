package dev.voiceplane.runtime.media;

import dev.voiceplane.runtime.audio.AudioFormat;
import io.vertx.core.http.ServerWebSocket;
import java.util.Base64;
import java.util.Map;

/**
 * A Twilio Media Stream seen as a {@link MediaChannel}: the assistant's audio goes out as {@code media} events of
 * base64 μ-law 8 kHz, marks as {@code mark}, a barge-in as {@code clear}. Twilio echoes each mark once the audio
 * before it has played, and all pending marks on a clear.
 */
final class TwilioChannel implements MediaChannel {

    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private final ServerWebSocket socket;
    private final String streamSid;

    TwilioChannel(ServerWebSocket socket, String streamSid) {
        this.socket = socket;
        this.streamSid = streamSid;
    }

    @Override
    public AudioFormat format() {
        return AudioFormat.ULAW_8K;
    }

    @Override
    public void sendAudio(byte[] frame) {
        if (!socket.isClosed()) {
            socket.writeTextMessage("{\"event\":\"media\",\"streamSid\":\"" + streamSid + "\",\"media\":{\"payload\":\""
                    + BASE64.encodeToString(frame) + "\"}}");
        }
    }

    @Override
    public void sendMark(String name) {
        if (!socket.isClosed()) {
            socket.writeTextMessage("{\"event\":\"mark\",\"streamSid\":\"" + streamSid + "\",\"mark\":{\"name\":\""
                    + name + "\"}}");
        }
    }

    @Override
    public void clear() {
        if (!socket.isClosed()) {
            socket.writeTextMessage("{\"event\":\"clear\",\"streamSid\":\"" + streamSid + "\"}");
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
