package dev.voiceplane.runtime.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.Pcm16;
import dev.voiceplane.runtime.audio.Resampler;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.AudioChunks;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Context;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * OpenAI's streaming transcription: the Realtime API in transcription mode ({@code GET /realtime?intent=transcription}
 * upgraded to a WebSocket, {@code Authorization: Bearer}; the GA interface, without {@code OpenAI-Beta}).
 *
 * <p>The first frame is {@code session.update} with a {@code transcription} session: the input format
 * ({@code audio/pcmu} for μ-law phone audio, sent as it came; {@code audio/pcm} at 24 kHz for web calls, resampled
 * from 16 kHz, the only PCM rate OpenAI takes), {@code transcription.model} and {@code language} as the assistant says,
 * and {@code server_vad} turn detection, so that OpenAI keeps only speech in its buffer and commits each utterance
 * itself (with {@code turn_detection: null} every second of the call, silence included, would be transcribed at the
 * next commit). Audio goes as {@code input_audio_buffer.append} every 100 ms. When the caller stops speaking,
 * {@code input_audio_buffer.commit} ends the utterance at once; OpenAI answers every commit ({@code committed}, or the
 * error {@code input_audio_buffer_commit_empty} when its own detection committed it already, which is ignored), so
 * silence after one within the transcriber deadline is a hung stream, as is a stream without {@code session.created}.
 *
 * <p>Events: {@code input_audio_buffer.speech_started} (the caller began), {@code
 * conversation.item.input_audio_transcription.delta} (the words so far of an utterance), {@code .completed} (its
 * transcript: a segment that ends the turn), {@code .failed} and {@code error} (typed by {@code error.type} and
 * {@code error.code}: {@code invalid_api_key} and {@code authentication_error} are auth, {@code rate_limit_*} and
 * {@code insufficient_quota} rate-limited, {@code server_error} unavailable, other invalid requests refused).
 */
final class OpenAiRealtimeTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(OpenAiRealtimeTranscriber.class);
    static final int PCM_RATE = 24000;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline answer;
    private final AudioChunks chunks;
    private final Map<String, StringBuilder> deltas = new HashMap<>();
    private long bytesSent;

    private OpenAiRealtimeTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        // Everything sent before the stream opens is held, session.update first: enough room for the whole deadline.
        super(context, "openai", (int) (deadlineMillis / 20) + 50);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.chunks = new AudioChunks(format.frameBytes() * 5);
        this.answer = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "answered nothing within " + deadlineMillis + " ms")));
    }

    static OpenAiRealtimeTranscriber open(Context context, WebSocketClient client, String url, String apiKey,
            String model, String language, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        OpenAiRealtimeTranscriber transcriber = new OpenAiRealtimeTranscriber(context, format, listener, json,
                deadlineMillis);
        transcriber.sendText(sessionUpdate(json, model, language, format).toString());
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("Authorization", "Bearer " + apiKey);
        }
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    static ObjectNode sessionUpdate(ObjectMapper json, String model, String language, AudioFormat format) {
        ObjectNode update = json.createObjectNode().put("type", "session.update");
        ObjectNode input = update.putObject("session").put("type", "transcription").putObject("audio")
                .putObject("input");
        if (format == AudioFormat.ULAW_8K) {
            input.putObject("format").put("type", "audio/pcmu");
        } else {
            input.putObject("format").put("type", "audio/pcm").put("rate", PCM_RATE);
        }
        ObjectNode transcription = input.putObject("transcription").put("model", model);
        if (language != null && !language.isBlank()) {
            transcription.put("language", language);
        }
        input.putObject("turn_detection").put("type", "server_vad").put("threshold", 0.5)
                .put("prefix_padding_ms", 300).put("silence_duration_ms", 500);
        return update;
    }

    /** OpenAI greets every session with {@code session.created}: it must come within the deadline of the opening. */
    @Override
    protected void opened() {
        answer.expect();
    }

    @Override
    protected void text(String text) {
        answer.answered();
        JsonNode event;
        try {
            event = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent an event that is not JSON"));
            return;
        }
        String type = event.path("type").asText("");
        switch (type) {
            case "input_audio_buffer.speech_started" -> listener.speechStarted();
            case "conversation.item.input_audio_transcription.delta" -> {
                StringBuilder words = deltas.computeIfAbsent(event.path("item_id").asText(""),
                        id -> new StringBuilder());
                words.append(event.path("delta").asText(""));
                if (!words.isEmpty() && !words.toString().isBlank()) {
                    listener.interim(words.toString().trim());
                }
            }
            case "conversation.item.input_audio_transcription.completed" -> {
                deltas.remove(event.path("item_id").asText(""));
                listener.segment(event.path("transcript").asText("").trim(), true);
            }
            case "conversation.item.input_audio_transcription.failed" -> fail(OpenAiErrors.of(provider(), event.path("error"),
                    "could not transcribe an utterance"));
            case "error" -> {
                if (!"input_audio_buffer_commit_empty".equals(event.path("error").path("code").asText())) {
                    fail(OpenAiErrors.of(provider(), event.path("error"), "answered an error"));
                }
            }
            default -> {
                if (type.isEmpty()) {
                    fail(ProviderError.protocol(provider(), "sent an event without a type"));
                } else {
                    LOG.tracef("openai realtime event ignored: %s", type);
                }
            }
        }
    }


    /** A close after an error event: the reason is {@code <type>.<code>} (an invalid key: 3000 ...invalid_api_key). */
    @Override
    protected ProviderError closedBy(int code, String reason) {
        ProviderError typed = OpenAiErrors.closed(provider(), code, reason, "closed the stream");
        return typed != null ? typed : super.closedBy(code, reason);
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        bytesSent += audio.length;
        byte[] chunk = chunks.add(audio);
        if (chunk != null) {
            append(chunk);
        }
    }

    private void append(byte[] chunk) {
        byte[] wire = format == AudioFormat.ULAW_8K ? chunk
                : Pcm16.bytes(Resampler.convert(Pcm16.samples(chunk), format.sampleRate(), PCM_RATE));
        sendText("{\"type\":\"input_audio_buffer.append\",\"audio\":\"" + Base64.getEncoder().encodeToString(wire)
                + "\"}");
    }

    /** What is held goes, then {@code input_audio_buffer.commit}: its answer is awaited within the deadline. */
    @Override
    public void finalizeTurn() {
        if (isClosed()) {
            return;
        }
        byte[] rest = chunks.flush();
        if (rest != null) {
            append(rest);
        }
        sendText("{\"type\":\"input_audio_buffer.commit\"}");
        answer.expect();
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
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
