package dev.voiceplane.runtime.provider.soniox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * Soniox's real-time WebSocket API ({@code wss://stt-rt.soniox.com/transcribe-websocket}): a first text frame with the
 * session's configuration (model, {@code audio_format} {@code mulaw} 8 kHz or {@code pcm_s16le} 16 kHz as the call
 * speaks, one channel, language hints, endpoint detection), then the call's audio as binary frames as sent. Soniox
 * answers a stream of tokens, each {@code is_final} or not: the final ones are kept until an end of the utterance,
 * {@code <end>} (Soniox's endpoint detection) or {@code <fin>} (the answer to {@code {"type":"finalize"}}, sent when
 * the caller stops speaking), whose words are the turn's segment; the words so far, final and not, are interims.
 * {@code {"type":"keepalive"}} keeps an idle session open; an empty frame ends the audio.
 *
 * <p>An error is a response with {@code error_code} (an HTTP status: 401 auth, 429 rate-limited, 408 timeout, 5xx
 * unavailable, other 4xx refused) and {@code error_message}, after which Soniox closes the session. A finalize left
 * unanswered within the transcriber deadline is a hung stream (Soniox answers each with {@code <fin>}).
 */
final class SonioxTranscriber extends ProviderSocket implements SpeechToText {

    private static final int MAX_PENDING_FRAMES = 250;
    private static final long KEEP_ALIVE_MILLIS = 5000;
    static final String END = "<end>";
    static final String FINALIZED = "<fin>";

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline finalizeAnswer;
    private final StringBuilder finals = new StringBuilder();
    private boolean inUtterance;
    private long bytesSent;

    private SonioxTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, SonioxTranscribers.PROVIDER, MAX_PENDING_FRAMES);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.finalizeAnswer = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "answered nothing within " + deadlineMillis + " ms of a finalize")));
    }

    /** Connects, {@code config} its first frame. */
    static SonioxTranscriber open(Context context, WebSocketClient client, String url, String apiKey, String config,
            AudioFormat format, Listener listener, ObjectMapper json, long deadlineMillis) {
        SonioxTranscriber transcriber = new SonioxTranscriber(context, format, listener, json, deadlineMillis);
        transcriber.sendText(config);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("Authorization", "Bearer " + apiKey);
        }
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    @Override
    protected void opened() {
        keepAlive(KEEP_ALIVE_MILLIS, () -> "{\"type\":\"keepalive\"}");
    }

    @Override
    protected void text(String text) {
        finalizeAnswer.answered();
        JsonNode response;
        try {
            response = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        if (!response.isObject()) {
            fail(ProviderError.protocol(provider(), "sent a message that is not an object"));
            return;
        }
        if (response.hasNonNull("error_code") || response.hasNonNull("error_message")) {
            int code = response.path("error_code").asInt(500);
            fail(ProviderError.ofStatus(provider(), code, "reported " + code + ": "
                    + response.path("error_message").asText("")));
            return;
        }
        StringBuilder pending = new StringBuilder();
        for (JsonNode token : response.path("tokens")) {
            String word = token.path("text").asText("");
            if (!token.path("is_final").asBoolean(false)) {
                pending.append(word);
            } else if (END.equals(word) || FINALIZED.equals(word)) {
                String utterance = finals.toString().trim();
                finals.setLength(0);
                inUtterance = false;
                listener.segment(utterance, true);
            } else {
                finals.append(word);
            }
        }
        String heard = (finals.toString() + pending).trim();
        if (!heard.isEmpty()) {
            if (!inUtterance) {
                inUtterance = true;
                listener.speechStarted();
            }
            listener.interim(heard);
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

    /** {@code finalize}: the words heard so far become final at once, then {@code <fin>} ends the utterance. */
    @Override
    public void finalizeTurn() {
        if (isClosed()) {
            return;
        }
        sendText("{\"type\":\"finalize\"}");
        finalizeAnswer.expect();
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    /** An empty frame: no more audio. */
    @Override
    protected String goodbye() {
        return "";
    }

    @Override
    public void close() {
        finalizeAnswer.cancel();
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        finalizeAnswer.cancel();
        listener.failed(error);
    }
}
