package dev.voiceplane.runtime.provider.deepgram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
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
import org.jboss.logging.Logger;

/**
 * Deepgram's live transcription ({@code GET /v1/listen} upgraded to a WebSocket, {@code Authorization: Token}).
 * The call's audio goes as sent (μ-law 8 kHz or PCM16 16 kHz: no transcoding); {@code Finalize} is sent when the
 * caller stops speaking so the turn's last words come at once; {@code KeepAlive} every few seconds keeps an idle
 * stream open; {@code CloseStream} ends it. Results: {@code is_final} segments, {@code speech_final} /
 * {@code from_finalize} mark an end of speech, interims show what is being said.
 */
final class DeepgramTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(DeepgramTranscriber.class);
    private static final int MAX_PENDING_FRAMES = 250;
    private static final long KEEP_ALIVE_MILLIS = 4000;
    static final String DEFAULT_MODEL = "nova-2";

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final long deadlineMillis;
    private boolean finalizePending;
    private long bytesSent;
    private boolean answeredFinalize = true;
    private long finalizeSentAt;
    private long answerTimer = -1;

    private DeepgramTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, "deepgram", MAX_PENDING_FRAMES);
        this.format = format;
        this.deadlineMillis = deadlineMillis;
        this.listener = listener;
        this.json = json;
    }

    /** Opens the stream from the call's context; audio sent before it is open is held (a few seconds at most). */
    static DeepgramTranscriber open(Context context, WebSocketClient client, String baseUrl, String apiKey,
            TranscriberSettings settings, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        DeepgramTranscriber transcriber = new DeepgramTranscriber(context, format, listener, json, deadlineMillis);
        transcriber.connect(client, new WebSocketConnectOptions().setAbsoluteURI(url(baseUrl, settings, format))
                .addHeader("Authorization", "Token " + apiKey), deadlineMillis);
        return transcriber;
    }

    static String url(String baseUrl, TranscriberSettings settings, AudioFormat format) {
        StringBuilder url = new StringBuilder(baseUrl.replaceAll("/+$", "")).append("/v1/listen?");
        url.append(format == AudioFormat.ULAW_8K ? "encoding=mulaw&sample_rate=8000" : "encoding=linear16&sample_rate=16000");
        url.append("&channels=1&interim_results=true&punctuate=true&vad_events=true&endpointing=300&utterance_end_ms=1000");
        url.append("&model=").append(encode(settings.modelOr(DEFAULT_MODEL)));
        if (settings.language() != null) {
            url.append("&language=").append(encode(settings.language()));
        }
        if (!Boolean.FALSE.equals(settings.smartFormat())) {
            url.append("&smart_format=true");
        }
        for (String keyword : settings.keywords()) {
            url.append("&keywords=").append(encode(keyword));
        }
        return url.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    protected void opened() {
        if (finalizePending) {
            finalizeTurn();
        }
        keepAlive(KEEP_ALIVE_MILLIS, () -> "{\"type\":\"KeepAlive\"}");
    }

    @Override
    protected void text(String text) {
        answeredFinalize = true;
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        switch (message.path("type").asText("")) {
            case "SpeechStarted" -> listener.speechStarted();
            case "Results" -> {
                String transcript = message.path("channel").path("alternatives").path(0).path("transcript").asText("");
                if (message.path("is_final").asBoolean(false)) {
                    boolean end = message.path("speech_final").asBoolean(false)
                            || message.path("from_finalize").asBoolean(false);
                    listener.segment(transcript, end);
                } else if (!transcript.isEmpty()) {
                    listener.interim(transcript);
                }
            }
            case "UtteranceEnd" -> listener.segment("", true);
            case "Metadata" -> {
            }
            default -> LOG.debugf("deepgram message ignored: %s", message.path("type").asText());
        }
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        bytesSent += audio.length;
        sendBinary(Buffer.buffer(audio));
    }

    @Override
    public void finalizeTurn() {
        if (isClosed()) {
            return;
        }
        if (!isOpen()) {
            finalizePending = true;
            return;
        }
        finalizePending = false;
        finalizeSentAt = System.nanoTime();
        answeredFinalize = false;
        sendText("{\"type\":\"Finalize\"}");
        if (answerTimer < 0) {
            armAnswerDeadline(deadlineMillis);
        }
    }

    /** Deepgram answers every Finalize (a {@code from_finalize} result); silence after one is a hung stream. */
    private void armAnswerDeadline(long millis) {
        answerTimer = context().owner().setTimer(Math.max(1, millis), id -> {
            answerTimer = -1;
            if (isClosed() || answeredFinalize) {
                return;
            }
            long waited = (System.nanoTime() - finalizeSentAt) / 1_000_000;
            if (waited >= deadlineMillis) {
                fail(ProviderError.timeout(provider(), "answered nothing within " + deadlineMillis
                        + " ms of a Finalize"));
            } else {
                armAnswerDeadline(deadlineMillis - waited);
            }
        });
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
        cancel(answerTimer);
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        listener.failed(error);
    }
}
