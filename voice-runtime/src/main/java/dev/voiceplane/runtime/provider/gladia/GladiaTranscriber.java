package dev.voiceplane.runtime.provider.gladia;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.AudioChunks;
import dev.voiceplane.runtime.provider.EventLoopHttpClients;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderExchange;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.jboss.logging.Logger;

/**
 * Gladia's live transcription, in its two steps: {@code POST /v2/live} ({@code x-gladia-key}, the session's
 * configuration: {@code encoding} {@code wav/ulaw} 8-bit 8 kHz or {@code wav/pcm} 16-bit 16 kHz as the call speaks,
 * one channel, the assistant's settings, acknowledgments asked for) answers the session's {@code url}, which carries
 * its own token; then the WebSocket at that URL, where the call's audio goes as binary chunks of 100 ms, each
 * acknowledged ({@code audio_chunk}, {@code acknowledged: true}). Gladia ends each utterance by itself after its
 * endpointing silence: a final {@code transcript} ({@code is_final: true}) is the turn's segment, partial ones are
 * interims, {@code speech_start} marks speech. Gladia has no message to end an utterance at once, so at the caller's
 * end of speech only the audio held is sent. {@code stop_recording} ends the session.
 *
 * <p>Failures: the session request answered with an HTTP error (typed by its status) or without a {@code url}, or not
 * within the transcriber deadline; a refused upgrade; a close Gladia did not answer to {@code stop_recording} (4401
 * and 4403 auth, 4429 rate-limited, the other 44xx refused: a session Gladia will not go on with; others
 * unavailable); an audio chunk refused ({@code acknowledged: false}); audio left unacknowledged within the deadline.
 */
final class GladiaTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(GladiaTranscriber.class);
    private static final int MAX_PENDING_CHUNKS = 50;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final long deadlineMillis;
    private final AnswerDeadline acknowledged;
    private final AudioChunks chunks;
    private SessionRequest session;
    private boolean inUtterance;
    private boolean heldBeforeOpen;
    private long bytesSent;

    private GladiaTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, GladiaTranscribers.PROVIDER, MAX_PENDING_CHUNKS);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.deadlineMillis = deadlineMillis;
        this.chunks = new AudioChunks(format.frameBytes() * 5);
        this.acknowledged = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "acknowledged no audio within " + deadlineMillis + " ms")));
    }

    /** Asks Gladia for a session ({@code init}: the request's body) from the call's context, then connects to it. */
    static GladiaTranscriber open(Context context, ProviderClients clients, String initUrl, String apiKey,
            String init, AudioFormat format, Listener listener) {
        GladiaTranscriber transcriber = new GladiaTranscriber(context, format, listener, clients.json(),
                clients.deadlines().transcriberMillis());
        context.runOnContext(ignored -> transcriber.requestSession(clients.http(), clients.webSockets(), initUrl,
                apiKey, init, clients.timeoutMillis()));
        return transcriber;
    }

    private void requestSession(EventLoopHttpClients http, WebSocketClient webSockets, String initUrl, String apiKey,
            String init, long timeoutMillis) {
        if (isClosed()) {
            return;
        }
        session = new SessionRequest(context().owner());
        session.armDeadline(deadlineMillis, "did not answer the session request within " + deadlineMillis + " ms");
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(initUrl)
                .putHeader("Content-Type", "application/json").setIdleTimeout(timeoutMillis);
        if (apiKey != null) {
            options.putHeader("x-gladia-key", apiKey);
        }
        SessionRequest request = session;
        request.send(http, options, Buffer.buffer(init), response -> response.body().onComplete(read -> {
            if (read.failed()) {
                request.fail(ProviderError.unavailable(provider(), "session request failed: "
                        + read.cause().getMessage()));
                return;
            }
            request.answered(response.statusCode(), read.result(), webSockets);
        }));
    }

    /** The session request: its answer gives the WebSocket's URL. */
    private final class SessionRequest extends ProviderExchange {

        SessionRequest(io.vertx.core.Vertx vertx) {
            super(vertx, GladiaTranscribers.PROVIDER);
        }

        void answered(int status, Buffer body, WebSocketClient webSockets) {
            // The answer has ended: its connection may serve another request now, so nothing may reset it.
            request = null;
            if (!finish()) {
                return;
            }
            if (status / 100 != 2) {
                GladiaTranscriber.this.fail(ProviderError.ofStatus(provider(), status, "answered " + status
                        + " to the session request"));
                return;
            }
            String url;
            try {
                url = json.readTree(body.getBytes()).path("url").asText("");
            } catch (Exception e) {
                url = "";
            }
            if (url.isBlank()) {
                GladiaTranscriber.this.fail(ProviderError.protocol(provider(), "answered the session request"
                        + " without a url"));
                return;
            }
            connect(webSockets, new WebSocketConnectOptions().setAbsoluteURI(ProviderClients.webSocketUrl(url)),
                    deadlineMillis);
        }

        @Override
        protected void failed(ProviderError error) {
            GladiaTranscriber.this.fail(error);
        }
    }

    @Override
    protected void text(String text) {
        acknowledged.answered();
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        String type = message.path("type").asText("");
        switch (type) {
            case "audio_chunk", "stop_recording" -> {
                if (!message.path("acknowledged").asBoolean(true)) {
                    fail(ProviderError.refused(provider(), "refused " + type + ": "
                            + message.path("error").path("message").asText("")));
                }
            }
            case "speech_start" -> {
                if (!inUtterance) {
                    inUtterance = true;
                    listener.speechStarted();
                }
            }
            case "transcript" -> {
                JsonNode data = message.path("data");
                String words = data.path("utterance").path("text").asText("").trim();
                if (data.path("is_final").asBoolean(false)) {
                    inUtterance = false;
                    listener.segment(words, true);
                } else if (!words.isEmpty()) {
                    listener.interim(words);
                }
            }
            case "error" -> fail(ProviderError.unavailable(provider(), "reported an error: "
                    + message.path("error").path("message").asText(message.path("message").asText(""))));
            default -> {
                if (!message.path("type").isTextual()) {
                    fail(ProviderError.protocol(provider(), "sent a message without a type"));
                } else {
                    LOG.debugf("gladia message ignored: %s", type);
                }
            }
        }
    }

    @Override
    protected ProviderError closedBy(int code, String reason) {
        String detail = "closed the stream (" + code + (reason == null || reason.isBlank() ? "" : " " + reason) + ")";
        return switch (code) {
            case 4401, 4403 -> ProviderError.auth(provider(), detail);
            case 4429 -> new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail);
            default -> code >= 4400 && code < 4500 ? ProviderError.refused(provider(), detail)
                    : super.closedBy(code, reason);
        };
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        byte[] chunk = chunks.add(audio);
        if (chunk != null) {
            sendChunk(chunk);
        }
    }

    private void sendChunk(byte[] chunk) {
        bytesSent += chunk.length;
        sendBinary(Buffer.buffer(chunk));
        if (isOpen()) {
            acknowledged.expect();
        } else {
            heldBeforeOpen = true;
        }
    }

    /** Gladia ends utterances by itself: the audio held goes now, so that its endpointing hears the silence at once. */
    @Override
    public void finalizeTurn() {
        if (isClosed()) {
            return;
        }
        byte[] rest = chunks.flush();
        if (rest != null) {
            sendChunk(rest);
        }
    }

    @Override
    protected void opened() {
        // The chunks held until now went out with the opening: their acknowledgments are due.
        if (heldBeforeOpen) {
            acknowledged.expect();
        }
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    protected String goodbye() {
        return "{\"type\":\"stop_recording\"}";
    }

    @Override
    public void close() {
        acknowledged.cancel();
        if (session != null) {
            session.cancel();
        }
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        acknowledged.cancel();
        listener.failed(error);
    }
}
