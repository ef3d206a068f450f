package dev.voiceplane.runtime.provider.speechmatics;

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
import java.util.ArrayDeque;
import org.jboss.logging.Logger;

/**
 * Speechmatics' real-time API ({@code wss://<region>.rt.speechmatics.com/v2}, {@code Authorization: Bearer}): a first
 * {@code StartRecognition} ({@code audio_format} raw {@code mulaw} 8 kHz or {@code pcm_s16le} 16 kHz as the call
 * speaks, and the assistant's {@code transcription_config}), then, once {@code RecognitionStarted} came, the call's
 * audio as binary {@code AddAudio} frames of 100 ms, each acknowledged by {@code AudioAdded}. When the caller stops
 * speaking, what is held and {@code ForceEndOfUtterance} go: Speechmatics answers the rest of the words
 * ({@code AddTranscript}) and {@code EndOfUtterance}, which ends the turn. {@code AddPartialTranscript}s are interims.
 * {@code EndOfStream} with the last {@code seq_no} ends the stream.
 *
 * <p>Failures: an {@code Error} message (after which Speechmatics closes the session) typed by its {@code type}
 * ({@code not_authorised}, {@code not_allowed} auth; {@code quota_exceeded}, {@code timelimit_exceeded} rate-limited;
 * the {@code invalid_…} types and {@code protocol_error} refused; {@code job_error}, {@code idle_timeout},
 * {@code session_timeout}, {@code unknown_error} unavailable), a close typed by its code (4001/4003 auth, 4004 refused,
 * 4005/4006 rate-limited, 1003 protocol, others unavailable), no {@code RecognitionStarted} within the transcriber
 * deadline of the opening, and audio left unacknowledged for as long: a hung stream.
 */
final class SpeechmaticsTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(SpeechmaticsTranscriber.class);
    private static final int MAX_PENDING_FRAMES = 100;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline started;
    private final AnswerDeadline acknowledged;
    private final AudioChunks chunks;
    /** Audio chunks waiting for {@code RecognitionStarted} (a few seconds at most). */
    private final ArrayDeque<byte[]> early = new ArrayDeque<>();
    private boolean recognizing;
    private boolean forcePending;
    private boolean inUtterance;
    private int seqNo;
    private long bytesSent;
    private final StringBuilder finals = new StringBuilder();

    private SpeechmaticsTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, SpeechmaticsTranscribers.PROVIDER, MAX_PENDING_FRAMES);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.chunks = new AudioChunks(format.frameBytes() * 5);
        this.started = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "sent no RecognitionStarted within " + deadlineMillis + " ms of the opening")));
        this.acknowledged = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "acknowledged no audio within " + deadlineMillis + " ms")));
    }

    /** Connects, {@code startRecognition} its first frame. */
    static SpeechmaticsTranscriber open(Context context, WebSocketClient client, String url, String apiKey,
            String startRecognition, AudioFormat format, Listener listener, ObjectMapper json, long deadlineMillis) {
        SpeechmaticsTranscriber transcriber = new SpeechmaticsTranscriber(context, format, listener, json,
                deadlineMillis);
        transcriber.sendText(startRecognition);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("Authorization", "Bearer " + apiKey);
        }
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    @Override
    protected void opened() {
        started.expect();
    }

    @Override
    protected void text(String text) {
        started.answered();
        acknowledged.answered();
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        String type = message.path("message").asText("");
        switch (type) {
            case "RecognitionStarted" -> recognitionStarted();
            case "AudioAdded", "EndOfTranscript", "AudioEventStarted", "AudioEventEnded", "SpeakersResult" -> {
            }
            case "AddPartialTranscript" -> {
                String partial = transcript(message);
                String heard = (finals + " " + partial).trim();
                if (!heard.isEmpty()) {
                    if (!inUtterance) {
                        inUtterance = true;
                        listener.speechStarted();
                    }
                    listener.interim(heard);
                }
            }
            case "AddTranscript" -> {
                String words = transcript(message);
                if (!words.isEmpty()) {
                    finals.append(finals.isEmpty() ? "" : " ").append(words);
                    listener.segment(words, false);
                }
            }
            case "EndOfUtterance" -> {
                finals.setLength(0);
                inUtterance = false;
                listener.segment("", true);
            }
            case "Info", "Warning" -> LOG.debugf("speechmatics %s: %s (%s)", type, message.path("type").asText(),
                    message.path("reason").asText());
            case "Error" -> fail(error(message.path("type").asText(""), message.path("reason").asText("")));
            default -> {
                if (!message.path("message").isTextual()) {
                    fail(ProviderError.protocol(provider(), "sent a message without a message name"));
                } else {
                    LOG.debugf("speechmatics message ignored: %s", type);
                }
            }
        }
    }

    /** A transcript message's words (its {@code metadata.transcript}, which Speechmatics ends with a space). */
    private static String transcript(JsonNode message) {
        return message.path("metadata").path("transcript").asText("").trim();
    }

    private void recognitionStarted() {
        if (recognizing) {
            return;
        }
        recognizing = true;
        while (!early.isEmpty()) {
            addAudio(early.poll());
        }
        if (forcePending) {
            finalizeTurn();
        }
    }

    private ProviderError error(String type, String reason) {
        String detail = "reported " + type + (reason.isBlank() ? "" : ": " + reason);
        return switch (type) {
            case "not_authorised", "not_allowed" -> ProviderError.auth(provider(), detail);
            case "quota_exceeded", "timelimit_exceeded" ->
                    new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail);
            case "invalid_message", "invalid_model", "invalid_language", "invalid_config", "invalid_audio_type",
                    "invalid_output_format", "protocol_error" -> ProviderError.refused(provider(), detail);
            default -> ProviderError.unavailable(provider(), detail);
        };
    }

    @Override
    protected ProviderError closedBy(int code, String reason) {
        String detail = "closed the stream (" + code + (reason == null || reason.isBlank() ? "" : " " + reason) + ")";
        return switch (code) {
            case 4001, 4003 -> ProviderError.auth(provider(), detail);
            case 4004 -> ProviderError.refused(provider(), detail);
            case 4005, 4006 -> new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail);
            case 1003 -> ProviderError.protocol(provider(), detail);
            default -> ProviderError.unavailable(provider(), detail);
        };
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        byte[] chunk = chunks.add(audio);
        if (chunk == null) {
            return;
        }
        if (recognizing) {
            addAudio(chunk);
        } else {
            if (early.size() == MAX_PENDING_FRAMES) {
                early.poll();
            }
            early.add(chunk);
        }
    }

    private void addAudio(byte[] chunk) {
        seqNo++;
        bytesSent += chunk.length;
        sendBinary(Buffer.buffer(chunk));
        acknowledged.expect();
    }

    /** What is held, then {@code ForceEndOfUtterance}: the rest of the words and {@code EndOfUtterance} come at once. */
    @Override
    public void finalizeTurn() {
        if (isClosed()) {
            return;
        }
        if (!recognizing) {
            forcePending = true;
            return;
        }
        forcePending = false;
        byte[] rest = chunks.flush();
        if (rest != null) {
            addAudio(rest);
        }
        sendText("{\"message\":\"ForceEndOfUtterance\"}");
        acknowledged.expect();
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    protected String goodbye() {
        return recognizing ? "{\"message\":\"EndOfStream\",\"last_seq_no\":" + seqNo + "}" : null;
    }

    @Override
    public void close() {
        started.cancel();
        acknowledged.cancel();
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        started.cancel();
        acknowledged.cancel();
        listener.failed(error);
    }
}
