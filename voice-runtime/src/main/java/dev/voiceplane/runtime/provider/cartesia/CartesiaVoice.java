package dev.voiceplane.runtime.provider.cartesia;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoicePiece;
import dev.voiceplane.runtime.provider.VoiceSettings;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * One call's Cartesia voice: a WebSocket to {@code /tts/websocket} ({@code X-API-Key}, {@code Cartesia-Version}
 * {@value #API_VERSION}), opened at the first piece and kept for the call, and one context per text piece: a generation
 * request {@code {model_id, transcript, voice:{mode:"id", id}, output_format:{container:"raw", encoding, sample_rate},
 * language, generation_config:{speed}, context_id, continue:false}}. The socket multiplexes: several pieces are
 * generated at once, and each {@code chunk} (base64 audio) and {@code done} names its context, so each piece's audio
 * reaches its own listener. A cancelled piece's context is cancelled ({@code {context_id, cancel:true}}) and whatever
 * Cartesia still sends for it is dropped. An {@code error} event fails its context's piece with the kind its
 * {@code status_code} says (401 auth, 429 rate-limited, 5xx unavailable, another 4xx refused), or every piece when it
 * names none; a message that is not JSON, or a socket that closes, fails every piece in flight. A socket that closes
 * with nothing in flight (Cartesia ends idle connections) is simply opened again for the next piece.
 */
final class CartesiaVoice implements TextToSpeech {

    private static final Logger LOG = Logger.getLogger(CartesiaVoice.class);
    /** The API version this is written against (docs.cartesia.ai, "API Conventions"; structured error events). */
    static final String API_VERSION = "2026-03-01";
    private static final int MAX_PENDING_FRAMES = 256;

    private final ProviderClients clients;
    private final String url;
    private final String apiKey;
    private final String provider;
    private final ObjectNode request;
    private final String contextPrefix = UUID.randomUUID().toString().substring(0, 8);
    private long contexts;
    private Connection connection;
    private boolean closed;

    CartesiaVoice(ProviderClients clients, String url, String apiKey, VoiceSettings voice, AudioFormat format) {
        this.clients = clients;
        this.url = url;
        this.apiKey = apiKey;
        this.provider = voice.provider();
        this.request = clients.json().createObjectNode();
        request.put("model_id", voice.text("model", CartesiaVoices.DEFAULT_MODEL));
        request.putObject("voice").put("mode", "id").put("id", voice.voiceId());
        ObjectNode output = request.putObject("output_format").put("container", "raw");
        if (format == AudioFormat.ULAW_8K) {
            output.put("encoding", "pcm_mulaw").put("sample_rate", 8000);
        } else {
            output.put("encoding", "pcm_s16le").put("sample_rate", 16000);
        }
        String language = voice.text("language", null);
        if (language != null) {
            request.put("language", language);
        }
        if (voice.speed() != null) {
            request.putObject("generation_config").put("speed", voice.speed());
        }
    }

    @Override
    public Runnable speak(String text, Listener listener) {
        if (closed) {
            listener.failed(ProviderError.unavailable(provider, "the voice was closed"));
            return () -> { };
        }
        if (connection == null) {
            connection = new Connection(context());
            connection.open();
        }
        Connection current = connection;
        String contextId = contextPrefix + "-" + (++contexts);
        VoicePiece piece = new VoicePiece(clients.vertx(), provider, listener, clients.deadlines().firstAudioMillis(),
                clients.timeoutMillis(), error -> current.timedOut(contextId, error));
        current.speak(contextId, text, piece);
        return () -> current.cancel(contextId, piece);
    }

    @Override
    public void close() {
        closed = true;
        if (connection != null) {
            connection.end();
            connection = null;
        }
    }

    private Context context() {
        Context current = Vertx.currentContext();
        return current != null ? current : clients.vertx().getOrCreateContext();
    }

    /** The socket and the pieces in flight on it, by context id. */
    private final class Connection extends ProviderSocket {
        private final Map<String, VoicePiece> pieces = new LinkedHashMap<>();

        Connection(Context context) {
            super(context, provider, MAX_PENDING_FRAMES);
        }

        void open() {
            connect(clients.webSockets(), new WebSocketConnectOptions().setAbsoluteURI(url)
                    .addHeader("X-API-Key", apiKey).addHeader("Cartesia-Version", API_VERSION),
                    clients.deadlines().firstAudioMillis());
        }

        void speak(String contextId, String text, VoicePiece piece) {
            pieces.put(contextId, piece);
            ObjectNode generation = request.deepCopy();
            generation.put("transcript", text).put("context_id", contextId).put("continue", false);
            sendText(generation.toString());
            piece.start();
        }

        void cancel(String contextId, VoicePiece piece) {
            if (piece.cancel()) {
                pieces.remove(contextId);
                sendCancel(contextId);
            }
        }

        void timedOut(String contextId, ProviderError error) {
            VoicePiece piece = pieces.remove(contextId);
            if (piece != null) {
                sendCancel(contextId);
                piece.fail(error);
            }
        }

        private void sendCancel(String contextId) {
            if (!isClosed()) {
                sendText(clients.json().createObjectNode().put("context_id", contextId).put("cancel", true).toString());
            }
        }

        /** The call no longer needs the socket: pieces still in flight hear nothing more. */
        void end() {
            for (VoicePiece piece : pieces.values()) {
                piece.cancel();
            }
            pieces.clear();
            close();
        }

        @Override
        protected void text(String text) {
            JsonNode message;
            try {
                message = clients.json().readTree(text);
            } catch (Exception e) {
                fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
                return;
            }
            String contextId = message.path("context_id").asText(null);
            switch (message.path("type").asText("")) {
                case "chunk" -> {
                    VoicePiece piece = contextId == null ? null : pieces.get(contextId);
                    if (piece == null) {
                        return; // a cancelled context's last chunks
                    }
                    byte[] audio;
                    try {
                        audio = Base64.getDecoder().decode(message.path("data").asText(""));
                    } catch (IllegalArgumentException e) {
                        fail(ProviderError.protocol(provider(), "sent a chunk whose data is not base64"));
                        return;
                    }
                    piece.audio(audio);
                }
                case "done" -> {
                    VoicePiece piece = contextId == null ? null : pieces.remove(contextId);
                    if (piece != null) {
                        piece.done();
                    }
                }
                case "error" -> {
                    int status = message.path("status_code").asInt(500);
                    ProviderError error = ProviderError.ofStatus(provider(), status, "answered an error (" + status
                            + " " + message.path("error_code").asText("") + ": " + message.path("title").asText("")
                            + ")");
                    if (contextId == null) {
                        fail(error);
                        return;
                    }
                    VoicePiece piece = pieces.remove(contextId);
                    if (piece != null) {
                        piece.fail(error);
                    }
                }
                case "timestamps", "phoneme_timestamps", "flush_done" -> {
                }
                default -> LOG.debugf("cartesia message ignored: %s", message.path("type").asText());
            }
        }

        @Override
        protected void binary(Buffer frame) {
            fail(ProviderError.protocol(provider(), "sent a binary frame (its audio comes as base64 chunks)"));
        }

        @Override
        protected void failed(ProviderError error) {
            if (connection == this) {
                connection = null;
            }
            List<VoicePiece> inFlight = new ArrayList<>(pieces.values());
            pieces.clear();
            if (inFlight.isEmpty()) {
                LOG.debugf("cartesia socket ended while idle: %s", error);
            }
            for (VoicePiece piece : inFlight) {
                piece.fail(error);
            }
        }
    }
}
