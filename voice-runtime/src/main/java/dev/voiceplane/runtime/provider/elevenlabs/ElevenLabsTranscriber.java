package dev.voiceplane.runtime.provider.elevenlabs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.AudioChunks;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Context;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.Base64;
import org.jboss.logging.Logger;

/**
 * ElevenLabs' realtime speech-to-text, Scribe ({@code GET /v1/speech-to-text/realtime?model_id&audio_format
 * &commit_strategy…} upgraded to a WebSocket, {@code xi-api-key}). The call's audio goes as sent ({@code ulaw_8000} or
 * {@code pcm_16000}), base64 in {@code input_audio_chunk} messages of 100 ms; with the manual commit strategy, the
 * audio held and {@code "commit":true} go when the caller stops speaking, and ElevenLabs answers the segment's
 * {@code committed_transcript} (the turn's end); with its own VAD (the assistant's VAD settings), it commits by itself.
 *
 * <p>Messages: {@code session_started} (first, always: a stream that sends none within the transcriber deadline of its
 * opening has hung), {@code partial_transcript} (interims), {@code committed_transcript}, and the errors, each its own
 * {@code message_type} with an {@code error} text ({@code auth_error}; {@code quota_exceeded}, {@code rate_limited},
 * {@code queue_overflow}, {@code resource_exhausted}; {@code input_error}, {@code chunk_size_exceeded},
 * {@code unaccepted_terms}; {@code transcriber_error}, {@code session_time_limit_exceeded},
 * {@code insufficient_audio_activity}, {@code error}), after which the session is over. {@code commit_throttled}
 * (commits too close together) is not: the commit is sent again a moment later. A commit unanswered within the
 * transcriber deadline is a hung stream.
 */
final class ElevenLabsTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(ElevenLabsTranscriber.class);
    private static final int MAX_PENDING_FRAMES = 100;
    private static final long COMMIT_RETRY_MILLIS = 300;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final boolean manualCommit;
    private final AnswerDeadline greeting;
    private final AnswerDeadline commitAnswer;
    private final AudioChunks chunks;
    private long bytesSent;
    private boolean inSegment;
    private long retryTimer = -1;

    private ElevenLabsTranscriber(Context context, AudioFormat format, boolean manualCommit, Listener listener,
            ObjectMapper json, long deadlineMillis) {
        super(context, ElevenLabsTranscribers.PROVIDER, MAX_PENDING_FRAMES);
        this.format = format;
        this.manualCommit = manualCommit;
        this.listener = listener;
        this.json = json;
        this.chunks = new AudioChunks(format.frameBytes() * 5);
        this.greeting = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "sent no session_started within " + deadlineMillis + " ms of the opening")));
        this.commitAnswer = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "answered nothing within " + deadlineMillis + " ms of a commit")));
    }

    static ElevenLabsTranscriber open(Context context, WebSocketClient client, String url, String apiKey,
            AudioFormat format, boolean manualCommit, Listener listener, ObjectMapper json, long deadlineMillis) {
        ElevenLabsTranscriber transcriber = new ElevenLabsTranscriber(context, format, manualCommit, listener, json,
                deadlineMillis);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("xi-api-key", apiKey);
        }
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    @Override
    protected void opened() {
        greeting.expect();
    }

    @Override
    protected void text(String text) {
        greeting.answered();
        commitAnswer.answered();
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        String type = message.path("message_type").asText("");
        String error = message.path("error").asText("");
        switch (type) {
            case "session_started", "committed_transcript_with_timestamps", "committed_transcript_entities" -> {
            }
            case "partial_transcript" -> {
                String partial = message.path("text").asText("").trim();
                if (partial.isEmpty()) {
                    return;
                }
                if (!inSegment) {
                    inSegment = true;
                    listener.speechStarted();
                }
                listener.interim(partial);
            }
            case "committed_transcript" -> {
                inSegment = false;
                listener.segment(message.path("text").asText("").trim(), true);
            }
            case "commit_throttled" -> retryCommit();
            case "auth_error" -> fail(ProviderError.auth(provider(), "refused the key (" + type + ": " + error + ")"));
            case "quota_exceeded", "rate_limited", "queue_overflow", "resource_exhausted" ->
                    fail(new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, "reported " + type + ": "
                            + error));
            case "input_error", "chunk_size_exceeded", "unaccepted_terms" ->
                    fail(ProviderError.refused(provider(), "reported " + type + ": " + error));
            case "transcriber_error", "session_time_limit_exceeded", "insufficient_audio_activity", "error" ->
                    fail(ProviderError.unavailable(provider(), "reported " + type + ": " + error));
            default -> {
                if (!message.path("message_type").isTextual()) {
                    fail(ProviderError.protocol(provider(), "sent a message without a message_type"));
                } else if (type.endsWith("error")) {
                    fail(ProviderError.unavailable(provider(), "reported " + type + ": " + error));
                } else {
                    LOG.debugf("11labs message ignored: %s", type);
                }
            }
        }
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        bytesSent += audio.length;
        byte[] chunk = chunks.add(audio);
        if (chunk != null) {
            sendText(chunk(chunk, false));
        }
    }

    /** Manual commits: what is held and {@code commit:true}; ElevenLabs answers the segment. */
    @Override
    public void finalizeTurn() {
        if (isClosed() || !manualCommit) {
            return;
        }
        commit();
    }

    private void commit() {
        byte[] rest = chunks.flush();
        sendText(chunk(rest == null ? new byte[0] : rest, true));
        commitAnswer.expect();
    }

    /** ElevenLabs refused a commit as too soon after the last: it is sent again (once the socket is still open). */
    private void retryCommit() {
        LOG.debugf("11labs throttled a commit; it is sent again in %d ms", COMMIT_RETRY_MILLIS);
        if (retryTimer >= 0) {
            return;
        }
        retryTimer = context().owner().setTimer(COMMIT_RETRY_MILLIS, id -> {
            retryTimer = -1;
            if (!isClosed()) {
                commit();
            }
        });
    }

    private String chunk(byte[] audio, boolean commit) {
        return json.createObjectNode().put("message_type", "input_audio_chunk")
                .put("audio_base_64", Base64.getEncoder().encodeToString(audio)).put("commit", commit)
                .put("sample_rate", format.sampleRate()).toString();
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    public void close() {
        greeting.cancel();
        commitAnswer.cancel();
        cancel(retryTimer);
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        greeting.cancel();
        commitAnswer.cancel();
        cancel(retryTimer);
        listener.failed(error);
    }
}
