package dev.voiceplane.runtime.provider.assemblyai;

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
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * AssemblyAI's Universal-Streaming v3 ({@code GET /v3/ws?sample_rate=…&encoding=…}, upgraded to a WebSocket;
 * {@code Authorization: <key>}). The call's audio goes as sent ({@code pcm_mulaw} 8 kHz or {@code pcm_s16le} 16 kHz),
 * joined into chunks of at least 60 ms (AssemblyAI refuses chunks under 50 ms or over 1000 ms, close code 3007);
 * {@code ForceEndpoint} is sent when the caller stops speaking so the turn ends at once, {@code Terminate} ends the
 * session. Messages: {@code Begin} (first, always: a stream that does not send it within the transcriber deadline has
 * hung), {@code SpeechStarted}, {@code Turn} (partials while {@code end_of_turn} is false; the end of a turn, the
 * formatted one when {@code format_turns} is on), {@code Termination}, and {@code Error} (the code and reason of the
 * close that follows).
 *
 * <p>Close and error codes (AssemblyAI's "Common session errors and closures" and its SDKs' code tables): 1008
 * "Unauthorized connection" is a refused key (or, when its reason says so, too many concurrent sessions); 3009 and
 * 4029/4102 too many sessions or audio too fast; 4001-4003 the key or the account; 3006/3007/4100/4101 a message or
 * chunk the server would not take; 3005 and 3008 the server's error or the session's end; others unavailable.
 */
final class AssemblyAiTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(AssemblyAiTranscriber.class);
    private static final int MAX_PENDING_FRAMES = 100;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final boolean formatTurns;
    private final AnswerDeadline greeting;
    private final AudioChunks chunks;
    private long bytesSent;
    private long startedTurn = -1;

    private AssemblyAiTranscriber(Context context, AudioFormat format, boolean formatTurns, Listener listener,
            ObjectMapper json, long deadlineMillis) {
        super(context, AssemblyAiTranscribers.PROVIDER, MAX_PENDING_FRAMES);
        this.format = format;
        this.formatTurns = formatTurns;
        this.listener = listener;
        this.json = json;
        // Three 20 ms frames: the first chunk length of the call's frames over AssemblyAI's 50 ms minimum.
        this.chunks = new AudioChunks(format.frameBytes() * 5 / 2);
        this.greeting = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "sent no Begin within " + deadlineMillis + " ms of the opening")));
    }

    static AssemblyAiTranscriber open(Context context, WebSocketClient client, String url, String apiKey,
            AudioFormat format, boolean formatTurns, Listener listener, ObjectMapper json, long deadlineMillis) {
        AssemblyAiTranscriber transcriber = new AssemblyAiTranscriber(context, format, formatTurns, listener, json,
                deadlineMillis);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("Authorization", apiKey);
        }
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    /** AssemblyAI greets every session with {@code Begin}: it must come within the deadline of the opening. */
    @Override
    protected void opened() {
        greeting.expect();
    }

    @Override
    protected void text(String text) {
        greeting.answered();
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        switch (message.path("type").asText("")) {
            case "Begin", "Termination" -> {
            }
            case "SpeechStarted" -> listener.speechStarted();
            case "Turn" -> turn(message);
            case "Error" -> fail(closedBy(message.path("error_code").asInt(3005), message.path("error").asText("")));
            default -> {
                if (!message.path("type").isTextual()) {
                    fail(ProviderError.protocol(provider(), "sent a message without a type"));
                } else {
                    LOG.debugf("assembly-ai message ignored: %s", message.path("type").asText());
                }
            }
        }
    }

    private void turn(JsonNode message) {
        String transcript = message.path("transcript").asText("");
        long order = message.path("turn_order").asLong(-1);
        if (!message.path("end_of_turn").asBoolean(false)) {
            if (order != startedTurn) {
                startedTurn = order;
                listener.speechStarted();
            }
            if (!transcript.isBlank()) {
                listener.interim(transcript);
            }
            return;
        }
        // With format_turns, a turn ends twice: as heard, then formatted (punctuation, casing); the second one counts.
        if (formatTurns && !message.path("turn_is_formatted").asBoolean(false)) {
            return;
        }
        listener.segment(transcript, true);
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        bytesSent += audio.length;
        byte[] chunk = chunks.add(audio);
        if (chunk != null) {
            sendBinary(Buffer.buffer(chunk));
        }
    }

    /**
     * {@code ForceEndpoint}: the turn ends now. The audio still held (under 60 ms, after the silence that ended the
     * caller's speech) is not sent: it would be a chunk under AssemblyAI's minimum.
     */
    @Override
    public void finalizeTurn() {
        if (!isClosed()) {
            sendText("{\"type\":\"ForceEndpoint\"}");
        }
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    protected String goodbye() {
        return "{\"type\":\"Terminate\"}";
    }

    @Override
    public void close() {
        greeting.cancel();
        super.close();
    }

    @Override
    protected ProviderError closedBy(int code, String reason) {
        String detail = "closed the stream (" + code + (reason == null || reason.isBlank() ? "" : " " + reason) + ")";
        String why = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
        return switch (code) {
            case 1008 -> why.contains("concurren") || why.contains("too many")
                    ? new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail)
                    : ProviderError.auth(provider(), detail);
            case 4001, 4002, 4003 -> ProviderError.auth(provider(), detail);
            case 3009, 4029, 4102, 1013 -> new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail);
            case 3006, 3007, 4000, 4100, 4101, 4032, 4033, 4034, 1002, 1003, 1007, 1009 ->
                    ProviderError.protocol(provider(), detail);
            default -> ProviderError.unavailable(provider(), detail);
        };
    }

    @Override
    protected void failed(ProviderError error) {
        greeting.cancel();
        listener.failed(error);
    }
}
