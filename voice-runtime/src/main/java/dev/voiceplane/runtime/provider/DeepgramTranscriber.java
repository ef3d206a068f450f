package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.conversation.CallPlan;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.jboss.logging.Logger;

/**
 * Deepgram's live transcription ({@code GET /v1/listen} upgraded to a WebSocket, {@code Authorization: Token}).
 * The call's audio goes as sent (μ-law 8 kHz or PCM16 16 kHz: no transcoding); {@code Finalize} is sent when the
 * caller stops speaking so the turn's last words come at once; {@code KeepAlive} every few seconds keeps an idle
 * stream open; {@code CloseStream} ends it. Results: {@code is_final} segments, {@code speech_final} /
 * {@code from_finalize} mark an end of speech, interims show what is being said.
 */
public final class DeepgramTranscriber implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(DeepgramTranscriber.class);
    private static final int MAX_PENDING_FRAMES = 250;
    private static final long KEEP_ALIVE_MILLIS = 4000;

    private final Context context;
    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final long deadlineMillis;
    private final ArrayDeque<Buffer> pending = new ArrayDeque<>();
    private WebSocket socket;
    private boolean closed;
    private boolean finalizePending;
    private long bytesSent;
    private long keepAliveTimer = -1;
    private long lastSentAt;
    private boolean answeredFinalize = true;
    private long finalizeSentAt;
    private long connectTimer = -1;
    private long answerTimer = -1;

    private DeepgramTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        this.context = context;
        this.format = format;
        this.deadlineMillis = deadlineMillis;
        this.listener = listener;
        this.json = json;
    }

    /** Opens the stream from the call's context; audio sent before it is open is held (a few seconds at most). */
    public static DeepgramTranscriber open(Context context, WebSocketClient client, String baseUrl, String apiKey,
            CallPlan.Transcriber settings, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        DeepgramTranscriber transcriber = new DeepgramTranscriber(context, format, listener, json, deadlineMillis);
        // An upgrade that is never answered (the TCP connect has its own, shorter timeout) is a failed transcriber.
        transcriber.connectTimer = context.owner().setTimer(deadlineMillis, id -> {
            transcriber.connectTimer = -1;
            if (transcriber.socket == null) {
                transcriber.fail("deepgram did not open the stream within " + deadlineMillis + " ms");
            }
        });
        WebSocketConnectOptions options = new WebSocketConnectOptions()
                .setAbsoluteURI(url(baseUrl, settings, format))
                .addHeader("Authorization", "Token " + apiKey);
        client.connect(options).onComplete(result -> {
            if (result.failed()) {
                transcriber.fail("deepgram connection failed: " + result.cause().getMessage());
            } else {
                transcriber.opened(result.result());
            }
        });
        return transcriber;
    }

    static String url(String baseUrl, CallPlan.Transcriber settings, AudioFormat format) {
        StringBuilder url = new StringBuilder(baseUrl.replaceAll("/+$", "")).append("/v1/listen?");
        url.append(format == AudioFormat.ULAW_8K ? "encoding=mulaw&sample_rate=8000" : "encoding=linear16&sample_rate=16000");
        url.append("&channels=1&interim_results=true&punctuate=true&vad_events=true&endpointing=300&utterance_end_ms=1000");
        url.append("&model=").append(encode(settings.model() == null ? "nova-2" : settings.model()));
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

    private void opened(WebSocket webSocket) {
        if (closed) {
            webSocket.close();
            return;
        }
        socket = webSocket;
        cancelTimer(connectTimer);
        connectTimer = -1;
        socket.textMessageHandler(this::received);
        socket.exceptionHandler(failure -> fail("deepgram stream failed: " + failure.getMessage()));
        socket.closeHandler(ignored -> {
            if (!closed) {
                fail("deepgram closed the stream (" + socket.closeStatusCode() + " " + socket.closeReason() + ")");
            }
        });
        while (!pending.isEmpty()) {
            socket.writeBinaryMessage(pending.poll());
        }
        if (finalizePending) {
            finalizeTurn();
        }
        lastSentAt = System.nanoTime();
        keepAliveTimer = context.owner().setPeriodic(KEEP_ALIVE_MILLIS, id -> {
            if (System.nanoTime() - lastSentAt > KEEP_ALIVE_MILLIS * 1_000_000L && socket != null && !closed) {
                socket.writeTextMessage("{\"type\":\"KeepAlive\"}");
            }
        });
    }

    private void received(String text) {
        if (closed) {
            return;
        }
        answeredFinalize = true;
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail("deepgram sent a message that is not JSON");
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
        if (closed) {
            return;
        }
        bytesSent += audio.length;
        Buffer buffer = Buffer.buffer(audio);
        if (socket == null) {
            if (pending.size() == MAX_PENDING_FRAMES) {
                pending.poll();
            }
            pending.add(buffer);
            return;
        }
        lastSentAt = System.nanoTime();
        socket.writeBinaryMessage(buffer);
    }

    @Override
    public void finalizeTurn() {
        if (closed) {
            return;
        }
        if (socket == null) {
            finalizePending = true;
            return;
        }
        finalizePending = false;
        finalizeSentAt = System.nanoTime();
        answeredFinalize = false;
        socket.writeTextMessage("{\"type\":\"Finalize\"}");
        if (answerTimer < 0) {
            armAnswerDeadline(deadlineMillis);
        }
    }

    /** Deepgram answers every Finalize (a {@code from_finalize} result); silence after one is a hung stream. */
    private void armAnswerDeadline(long millis) {
        answerTimer = context.owner().setTimer(Math.max(1, millis), id -> {
            answerTimer = -1;
            if (closed || answeredFinalize) {
                return;
            }
            long waited = (System.nanoTime() - finalizeSentAt) / 1_000_000;
            if (waited >= deadlineMillis) {
                fail("deepgram answered nothing within " + deadlineMillis + " ms of a Finalize");
            } else {
                armAnswerDeadline(deadlineMillis - waited);
            }
        });
    }

    private void cancelTimer(long timer) {
        if (timer >= 0) {
            context.owner().cancelTimer(timer);
        }
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        cancelTimer(keepAliveTimer);
        cancelTimer(connectTimer);
        cancelTimer(answerTimer);
        if (socket != null) {
            socket.writeTextMessage("{\"type\":\"CloseStream\"}");
            socket.close();
        }
        pending.clear();
    }

    private void fail(String reason) {
        if (closed) {
            return;
        }
        close();
        listener.failed(reason);
    }
}
