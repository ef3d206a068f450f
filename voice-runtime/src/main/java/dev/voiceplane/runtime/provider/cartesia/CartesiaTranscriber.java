package dev.voiceplane.runtime.provider.cartesia;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.AudioChunks;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.jboss.logging.Logger;

/**
 * Cartesia's realtime speech-to-text with manual finalization, Ink ({@code GET /stt/websocket?model&language&encoding
 * &sample_rate} upgraded to a WebSocket; {@code X-API-Key}, {@code Cartesia-Version}). The call's audio goes as
 * binary frames of 100 ms as sent ({@code pcm_mulaw} 8 kHz or {@code pcm_s16le} 16 kHz); when the caller stops
 * speaking, what is held and the bare text frame {@code finalize} go, and Cartesia flushes the words it holds, then
 * answers {@code flush_done}, which ends the turn. {@code transcript} events are deltas: the final ones
 * ({@code is_final}) are joined as sent, the last non-final one is what is being said. The text frame {@code done}
 * ends the session.
 *
 * <p>Failures: a refused upgrade (401 auth, 429 rate-limited, ...), an {@code error} event (typed by its
 * {@code status_code}, unavailable without one), a close the runtime did not ask for, and a {@code finalize} left
 * without its {@code flush_done} within the transcriber deadline (Cartesia acknowledges each).
 */
final class CartesiaTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(CartesiaTranscriber.class);
    private static final int MAX_PENDING_CHUNKS = 50;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline flushed;
    private final AudioChunks chunks;
    private final StringBuilder finals = new StringBuilder();
    private boolean inUtterance;
    private long bytesSent;

    private CartesiaTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, CartesiaTranscribers.PROVIDER, MAX_PENDING_CHUNKS);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.chunks = new AudioChunks(format.frameBytes() * 5);
        this.flushed = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "sent no flush_done within " + deadlineMillis + " ms of a finalize")));
    }

    static CartesiaTranscriber open(Context context, WebSocketClient client, String url, String apiKey,
            AudioFormat format, Listener listener, ObjectMapper json, long deadlineMillis) {
        CartesiaTranscriber transcriber = new CartesiaTranscriber(context, format, listener, json, deadlineMillis);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url)
                .addHeader("Cartesia-Version", CartesiaVoice.API_VERSION);
        if (apiKey != null) {
            options.addHeader("X-API-Key", apiKey);
        }
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    @Override
    protected void text(String text) {
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        String type = message.path("type").asText("");
        switch (type) {
            case "transcript" -> {
                String words = message.path("text").asText("");
                String pending = "";
                if (message.path("is_final").asBoolean(false)) {
                    finals.append(words);
                } else {
                    pending = words;
                }
                String heard = (finals + pending).trim();
                if (!heard.isEmpty()) {
                    if (!inUtterance) {
                        inUtterance = true;
                        listener.speechStarted();
                    }
                    listener.interim(heard);
                }
            }
            case "flush_done" -> {
                flushed.answered();
                String utterance = finals.toString().trim();
                finals.setLength(0);
                inUtterance = false;
                listener.segment(utterance, true);
            }
            case "done" -> {
            }
            case "error" -> {
                String detail = "reported an error: " + message.path("message").asText(message.path("error")
                        .asText(message.path("title").asText("")));
                int status = message.path("status_code").asInt(0);
                fail(status > 0 ? ProviderError.ofStatus(provider(), status, detail)
                        : ProviderError.unavailable(provider(), detail));
            }
            default -> {
                if (!message.path("type").isTextual()) {
                    fail(ProviderError.protocol(provider(), "sent a message without a type"));
                } else {
                    LOG.debugf("cartesia transcriber message ignored: %s", type);
                }
            }
        }
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        byte[] chunk = chunks.add(audio);
        if (chunk != null) {
            bytesSent += chunk.length;
            sendBinary(Buffer.buffer(chunk));
        }
    }

    /** What is held, then {@code finalize}: Cartesia flushes the words it holds and answers {@code flush_done}. */
    @Override
    public void finalizeTurn() {
        if (isClosed()) {
            return;
        }
        byte[] rest = chunks.flush();
        if (rest != null) {
            bytesSent += rest.length;
            sendBinary(Buffer.buffer(rest));
        }
        sendText("finalize");
        flushed.expect();
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    protected String goodbye() {
        return "done";
    }

    @Override
    public void close() {
        flushed.cancel();
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        flushed.cancel();
        listener.failed(error);
    }
}
