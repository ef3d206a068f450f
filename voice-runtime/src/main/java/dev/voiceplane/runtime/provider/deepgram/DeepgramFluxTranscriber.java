package dev.voiceplane.runtime.provider.deepgram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.AudioChunks;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TranscriberSettings;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * Deepgram Flux, the conversational model with its own end-of-turn detection ({@code GET /v2/listen} upgraded to a
 * WebSocket, {@code Authorization: Token}). The call's audio goes as sent ({@code mulaw} 8 kHz or {@code linear16}
 * 16 kHz, both taken by Flux since 2025-10-16), in chunks of 80 ms (Flux's recommendation). Messages:
 * {@code Connected}, then {@code TurnInfo} whose {@code event} is {@code StartOfTurn} (the caller began a turn),
 * {@code Update} (about every 250 ms of audio, whatever was heard), {@code EagerEndOfTurn} / {@code TurnResumed}
 * (only with {@code eager_eot_threshold}), {@code EndOfTurn} (the turn's whole transcript); {@code Error} is fatal.
 *
 * <p>Flux decides where a turn ends, so the end of the caller's speech sends nothing ({@code ForceEndTurn} would
 * replace Flux's turn model by the runtime's voice activity): the turn ends with Flux's {@code EndOfTurn}, or, should
 * none come, a second after the speech ended with the words Flux gave. Since Flux answers every 250 ms of audio, a
 * stream that sends nothing within the transcriber deadline of its opening or of the end of the caller's speech has
 * hung. {@code CloseStream} ends the stream.
 */
final class DeepgramFluxTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(DeepgramFluxTranscriber.class);
    private static final int MAX_PENDING_FRAMES = 100;
    private static final long KEEP_ALIVE_MILLIS = 4000;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline answer;
    private final AudioChunks chunks;
    private long bytesSent;

    private DeepgramFluxTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, "deepgram", MAX_PENDING_FRAMES);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.chunks = new AudioChunks(format.frameBytes() * 4);
        this.answer = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "Flux answered nothing within " + deadlineMillis + " ms")));
    }

    static DeepgramFluxTranscriber open(Context context, WebSocketClient client, String baseUrl, String apiKey,
            TranscriberSettings settings, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        DeepgramFluxTranscriber transcriber = new DeepgramFluxTranscriber(context, format, listener, json,
                deadlineMillis);
        transcriber.connect(client, new WebSocketConnectOptions().setAbsoluteURI(url(baseUrl, settings, format))
                .addHeader("Authorization", "Token " + apiKey), deadlineMillis);
        return transcriber;
    }

    static String url(String baseUrl, TranscriberSettings settings, AudioFormat format) {
        JsonNode raw = settings.raw();
        String model = settings.modelOr(DeepgramTranscribers.FLUX_DEFAULT_MODEL);
        StringBuilder url = new StringBuilder(baseUrl.replaceAll("/+$", "")).append("/v2/listen?model=")
                .append(encode(model));
        url.append(format == AudioFormat.ULAW_8K ? "&encoding=mulaw&sample_rate=8000"
                : "&encoding=linear16&sample_rate=16000");
        number(url, raw, "eotThreshold", "eot_threshold");
        number(url, raw, "eagerEotThreshold", "eager_eot_threshold");
        number(url, raw, "eotTimeoutMs", "eot_timeout_ms");
        raw.path("keyterm").forEach(term -> {
            if (term.isTextual() && !term.asText().isBlank()) {
                url.append("&keyterm=").append(encode(term.asText()));
            }
        });
        if (raw.path("mipOptOut").asBoolean(false)) {
            url.append("&mip_opt_out=true");
        }
        // Only the multilingual model takes a language, as a hint; flux-general-en is English.
        if (settings.language() != null && !settings.language().isBlank()
                && model.toLowerCase(Locale.ROOT).contains("multi")) {
            url.append("&language_hint=").append(encode(settings.language()));
        }
        return url.toString();
    }

    private static void number(StringBuilder url, JsonNode raw, String field, String parameter) {
        if (raw.path(field).isNumber()) {
            url.append('&').append(parameter).append('=').append(raw.path(field).asText());
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Flux greets every stream with {@code Connected}: it must come within the deadline of the opening. */
    @Override
    protected void opened() {
        answer.expect();
        keepAlive(KEEP_ALIVE_MILLIS, () -> "{\"type\":\"KeepAlive\"}");
    }

    @Override
    protected void text(String text) {
        answer.answered();
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "Flux sent a message that is not JSON"));
            return;
        }
        switch (message.path("type").asText("")) {
            case "Connected" -> {
            }
            case "TurnInfo" -> turnInfo(message);
            case "Error" -> fail(error(message.path("code").asText(""), message.path("description").asText("")));
            default -> {
                if (!message.path("type").isTextual()) {
                    fail(ProviderError.protocol(provider(), "Flux sent a message without a type"));
                } else {
                    LOG.debugf("deepgram flux message ignored: %s", message.path("type").asText());
                }
            }
        }
    }

    private void turnInfo(JsonNode message) {
        String transcript = message.path("transcript").asText("");
        switch (message.path("event").asText("")) {
            case "StartOfTurn" -> {
                listener.speechStarted();
                if (!transcript.isBlank()) {
                    listener.interim(transcript);
                }
            }
            case "Update", "EagerEndOfTurn" -> {
                if (!transcript.isBlank()) {
                    listener.interim(transcript);
                }
            }
            case "EndOfTurn" -> listener.segment(transcript, true);
            default -> {
                // TurnResumed: the turn goes on; its words come with the next Update.
            }
        }
    }

    private ProviderError error(String code, String description) {
        String detail = "Flux error " + code + (description.isBlank() ? "" : ": " + abbreviate(description));
        String upper = code.toUpperCase(Locale.ROOT);
        if (upper.contains("AUTH")) {
            return ProviderError.auth(provider(), detail);
        }
        if (upper.contains("RATE") || upper.contains("TOO_MANY") || upper.contains("CONCURREN")) {
            return new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail);
        }
        if (upper.contains("INVALID") || upper.contains("BAD_REQUEST") || upper.contains("UNSUPPORTED")) {
            return ProviderError.refused(provider(), detail);
        }
        return ProviderError.unavailable(provider(), detail);
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
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

    /** Nothing is sent (Flux ends turns itself); an answer is now awaited within the deadline. */
    @Override
    public void finalizeTurn() {
        if (!isClosed()) {
            answer.expect();
        }
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    protected String goodbye() {
        return "{\"type\":\"CloseStream\"}";
    }

    @Override
    public void close() {
        answer.cancel();
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        answer.cancel();
        listener.failed(error);
    }
}
