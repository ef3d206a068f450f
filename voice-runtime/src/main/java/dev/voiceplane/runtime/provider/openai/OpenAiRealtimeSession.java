package dev.voiceplane.runtime.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.Pcm16;
import dev.voiceplane.runtime.audio.Resampler;
import dev.voiceplane.runtime.provider.AnswerDeadline;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.RealtimeRequest;
import dev.voiceplane.runtime.provider.RealtimeSession;
import dev.voiceplane.runtime.provider.RealtimeUsage;
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.ToolSpec;
import io.vertx.core.Context;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * One call on OpenAI's Realtime API (the GA interface, without {@code OpenAI-Beta}): {@code GET /realtime?model=<id>}
 * upgraded to a WebSocket with {@code Authorization: Bearer <key>}.
 *
 * <p>The first frame is {@code session.update} with a {@code realtime} session: the instructions, the tools as
 * function definitions, {@code audio.input.format} and {@code audio.output.format} {@code audio/pcmu} for a phone
 * call's μ-law (sent and played as it comes: μ-law end to end) or {@code audio/pcm} at 24 kHz for PCM calls (the
 * call's 16 kHz resampled both ways: OpenAI takes no other PCM rate), the input's transcription
 * ({@code gpt-4o-transcribe}: the caller's words for the transcript), {@code server_vad} turn detection that
 * creates a reply when the caller stops and cancels it when the caller speaks over it, and the voice. A hand-off's
 * conversation so far follows as {@code conversation.item.create} messages. Caller audio goes as
 * {@code input_audio_buffer.append}, one 20 ms frame at a time.
 *
 * <p>Replies are one at a time: {@code response.create} (with the reply's own instructions and the runtime's tag in
 * {@code metadata}) is sent when no reply is under way, else once it is done; {@code response.cancel} stops the one
 * under way, {@code conversation.item.truncate} cuts an item's audio to what the caller heard, and a tool's result
 * goes as a {@code function_call_output} item. Server events: {@code input_audio_buffer.speech_started}/
 * {@code stopped}, {@code conversation.item.input_audio_transcription.completed}, {@code response.created},
 * {@code response.output_audio.delta}, {@code response.output_audio_transcript.delta}/{@code done},
 * {@code response.output_item.done}, {@code response.function_call_arguments.done}, {@code response.done} (with its
 * usage) and {@code error} (typed by {@code error.type} and {@code error.code}; a cancel with nothing to cancel, and a
 * reply asked for while the model began one itself, which is asked again after it, are not failures). Nothing within
 * the deadline after the opening or after a reply is asked for is a hung session.
 */
final class OpenAiRealtimeSession extends ProviderSocket implements RealtimeSession {

    private static final Logger LOG = Logger.getLogger(OpenAiRealtimeSession.class);
    static final int PCM_RATE = 24000;
    static final String TRANSCRIPTION_MODEL = "gpt-4o-transcribe";

    private record Request(String instructions, String tag) {
    }

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline answer;
    private final ArrayDeque<Request> queued = new ArrayDeque<>();
    private final Set<String> calls = new HashSet<>();
    private Request sent;
    private boolean responding;

    private OpenAiRealtimeSession(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        // Everything sent before the socket opens is held, session.update first: room for the whole deadline.
        super(context, "openai", (int) (deadlineMillis / 20) + 100);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.answer = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "answered nothing within " + deadlineMillis + " ms")));
    }

    static OpenAiRealtimeSession open(Context context, WebSocketClient client, String url, String apiKey,
            RealtimeRequest request, AudioFormat format, Listener listener, ObjectMapper json, long deadlineMillis) {
        OpenAiRealtimeSession session = new OpenAiRealtimeSession(context, format, listener, json, deadlineMillis);
        session.sendText(sessionUpdate(json, request, format).toString());
        for (ChatMessage message : request.conversation()) {
            ObjectNode item = session.message(message);
            if (item != null) {
                session.sendText(item.toString());
            }
        }
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("Authorization", "Bearer " + apiKey);
        }
        session.connect(client, options, deadlineMillis);
        return session;
    }

    static ObjectNode sessionUpdate(ObjectMapper json, RealtimeRequest request, AudioFormat format) {
        ObjectNode update = json.createObjectNode().put("type", "session.update");
        ObjectNode session = update.putObject("session").put("type", "realtime").put("model", request.model());
        session.putArray("output_modalities").add("audio");
        if (request.instructions() != null && !request.instructions().isBlank()) {
            session.put("instructions", request.instructions());
        }
        if (request.maxOutputTokens() != null) {
            session.put("max_output_tokens", request.maxOutputTokens());
        }
        ObjectNode audio = session.putObject("audio");
        ObjectNode input = audio.putObject("input");
        format(input.putObject("format"), format);
        input.putObject("transcription").put("model", TRANSCRIPTION_MODEL);
        if (request.runtimeTurns()) {
            input.putNull("turn_detection"); // the runtime commits the caller's turns and asks for the replies
        } else {
            input.putObject("turn_detection").put("type", "server_vad").put("threshold", 0.5)
                    .put("prefix_padding_ms", 300).put("silence_duration_ms", 500).put("create_response", true)
                    .put("interrupt_response", true);
        }
        ObjectNode output = audio.putObject("output");
        format(output.putObject("format"), format);
        if (request.voice() != null) {
            output.put("voice", request.voice());
        }
        ArrayNode tools = session.putArray("tools");
        for (ToolSpec spec : request.tools()) {
            ObjectNode tool = tools.addObject().put("type", "function").put("name", spec.name());
            if (spec.description() != null) {
                tool.put("description", spec.description());
            }
            if (spec.parameters() != null) {
                tool.set("parameters", spec.parameters());
            } else {
                tool.putObject("parameters").put("type", "object").putObject("properties");
            }
        }
        session.put("tool_choice", "auto");
        return update;
    }

    private static void format(ObjectNode node, AudioFormat format) {
        if (format == AudioFormat.ULAW_8K) {
            node.put("type", "audio/pcmu");
        } else {
            node.put("type", "audio/pcm").put("rate", PCM_RATE);
        }
    }

    /** A message of the conversation so far as an item: the caller's as input text, the assistant's as output. */
    private ObjectNode message(ChatMessage message) {
        if (message.content() == null || message.content().isBlank()
                || !("user".equals(message.role()) || "assistant".equals(message.role()))) {
            return null;
        }
        ObjectNode create = json.createObjectNode().put("type", "conversation.item.create");
        ObjectNode item = create.putObject("item").put("type", "message").put("role", message.role());
        item.putArray("content").addObject().put("type", "user".equals(message.role()) ? "input_text" : "output_text")
                .put("text", message.content());
        return create;
    }

    /** OpenAI greets every session with {@code session.created}: it must come within the deadline. */
    @Override
    protected void opened() {
        answer.expect();
    }

    // ---- what the call sends -----------------------------------------------------------------------------------

    @Override
    public void audio(byte[] audio) {
        if (isClosed()) {
            return;
        }
        byte[] wire = format == AudioFormat.ULAW_8K ? audio
                : Pcm16.bytes(Resampler.convert(Pcm16.samples(audio), format.sampleRate(), PCM_RATE));
        sendText("{\"type\":\"input_audio_buffer.append\",\"audio\":\"" + Base64.getEncoder().encodeToString(wire)
                + "\"}");
    }

    @Override
    public void respond(String instructions, String tag) {
        if (isClosed()) {
            return;
        }
        Request request = new Request(instructions, tag);
        if (responding) {
            queued.add(request);
        } else {
            send(request);
        }
    }

    private void send(Request request) {
        sent = request;
        responding = true;
        ObjectNode create = json.createObjectNode().put("type", "response.create");
        ObjectNode response = create.putObject("response");
        if (request.instructions() != null) {
            response.put("instructions", request.instructions());
        }
        if (request.tag() != null) {
            response.putObject("metadata").put("tag", request.tag());
        }
        sendText(create.toString());
        answer.expect();
    }

    @Override
    public void cancel(String tag) {
        if (isClosed()) {
            return;
        }
        queued.removeIf(request -> tag != null && tag.equals(request.tag()));
        if (sent != null && tag != null && tag.equals(sent.tag())) {
            sent = null;
        }
        if (responding) {
            sendText("{\"type\":\"response.cancel\"}");
        }
    }

    @Override
    public void truncate(String itemId, long heardMillis) {
        if (isClosed() || itemId == null) {
            return;
        }
        ObjectNode truncate = json.createObjectNode().put("type", "conversation.item.truncate").put("item_id", itemId)
                .put("content_index", 0).put("audio_end_ms", Math.max(0, heardMillis));
        sendText(truncate.toString());
    }

    /** The caller's utterance is the buffer since the last commit: {@code input_audio_buffer.commit}, then the reply. */
    @Override
    public void callerEnded(String tag) {
        if (isClosed()) {
            return;
        }
        sendText("{\"type\":\"input_audio_buffer.commit\"}");
        respond(null, tag);
    }

    /** {@code input_audio_buffer.clear}: the words over the reply are not the caller's next message. */
    @Override
    public void callerDropped() {
        if (!isClosed()) {
            sendText("{\"type\":\"input_audio_buffer.clear\"}");
        }
    }

    @Override
    public void userText(String text) {
        ObjectNode create = message(new ChatMessage("user", text));
        if (!isClosed() && create != null) {
            sendText(create.toString());
        }
    }

    @Override
    public void toolResult(String callId, String output) {
        if (isClosed()) {
            return;
        }
        ObjectNode create = json.createObjectNode().put("type", "conversation.item.create");
        create.putObject("item").put("type", "function_call_output").put("call_id", callId)
                .put("output", output == null ? "" : output);
        sendText(create.toString());
    }

    // ---- what OpenAI sends -------------------------------------------------------------------------------------

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
            case "input_audio_buffer.speech_stopped" -> listener.speechStopped();
            case "conversation.item.input_audio_transcription.completed" -> listener.callerTranscript(
                    event.path("item_id").asText(null), event.path("transcript").asText("").trim());
            case "response.created" -> {
                responding = true;
                JsonNode tag = event.path("response").path("metadata").path("tag");
                if (sent != null && tag.isTextual() && tag.asText().equals(sent.tag())) {
                    sent = null; // ours began; one the model began itself leaves ours still asked for
                }
                listener.responseStarted(event.path("response").path("id").asText(""),
                        tag.isTextual() ? tag.asText() : null);
            }
            case "response.output_audio.delta" -> {
                byte[] audio = decode(event.path("delta").asText(""));
                if (audio == null) {
                    return;
                }
                listener.audio(event.path("response_id").asText(""), event.path("item_id").asText(""), audio);
            }
            case "response.output_audio_transcript.delta" -> listener.transcriptDelta(
                    event.path("response_id").asText(""), event.path("item_id").asText(""),
                    event.path("delta").asText(""));
            case "response.output_audio_transcript.done" -> listener.transcriptDone(
                    event.path("response_id").asText(""), event.path("item_id").asText(""),
                    event.path("transcript").asText(""));
            case "response.function_call_arguments.done" -> toolCall(event.path("response_id").asText(""),
                    event.path("call_id").asText(null), event.path("name").asText(null),
                    event.path("arguments").asText("{}"));
            case "response.output_item.done" -> {
                JsonNode item = event.path("item");
                String responseId = event.path("response_id").asText("");
                if ("function_call".equals(item.path("type").asText())) {
                    toolCall(responseId, item.path("call_id").asText(null), item.path("name").asText(null),
                            item.path("arguments").asText("{}"));
                } else {
                    listener.itemDone(responseId, item.path("id").asText(""));
                }
            }
            case "response.done" -> {
                JsonNode response = event.path("response");
                String responseId = response.path("id").asText("");
                for (JsonNode item : response.path("output")) {
                    if ("function_call".equals(item.path("type").asText())) {
                        toolCall(responseId, item.path("call_id").asText(null), item.path("name").asText(null),
                                item.path("arguments").asText("{}"));
                    }
                }
                responding = false;
                listener.responseDone(responseId, response.path("status").asText("completed"),
                        usage(response.path("usage")));
                if (!isClosed() && !responding && !queued.isEmpty()) {
                    send(queued.poll());
                }
            }
            case "error" -> error(event.path("error"));
            default -> {
                if (type.isEmpty()) {
                    fail(ProviderError.protocol(provider(), "sent an event without a type"));
                } else {
                    LOG.tracef("openai realtime event ignored: %s", type);
                }
            }
        }
    }

    /**
     * A reply's usage: {@code input_tokens} and {@code output_tokens}, detailed by {@code input_token_details}
     * ({@code text_tokens}, {@code audio_tokens}, and {@code cached_tokens}, split by {@code cached_tokens_details}; a
     * cached count without that split is taken from the text first) and {@code output_token_details}.
     */
    static RealtimeUsage usage(JsonNode usage) {
        JsonNode input = usage.path("input_token_details");
        JsonNode output = usage.path("output_token_details");
        long text = input.path("text_tokens").asLong(0);
        long audio = input.path("audio_tokens").asLong(0);
        long cached = input.path("cached_tokens").asLong(0);
        JsonNode cachedDetails = input.path("cached_tokens_details");
        long cachedText;
        long cachedAudio;
        if (cachedDetails.isObject()) {
            cachedText = cachedDetails.path("text_tokens").asLong(0);
            cachedAudio = cachedDetails.path("audio_tokens").asLong(0);
        } else {
            cachedText = Math.min(cached, text);
            cachedAudio = Math.min(cached - cachedText, audio);
        }
        return new RealtimeUsage(usage.path("input_tokens").asLong(0), usage.path("output_tokens").asLong(0), text,
                audio, cachedText, cachedAudio, output.path("text_tokens").asLong(0),
                output.path("audio_tokens").asLong(0));
    }

    private void toolCall(String responseId, String callId, String name, String arguments) {
        if (callId == null || name == null || !calls.add(callId)) {
            return;
        }
        listener.toolCall(responseId, new ToolCall(callId, name, arguments));
    }

    private byte[] decode(String base64) {
        byte[] wire;
        try {
            wire = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            fail(ProviderError.protocol(provider(), "sent audio that is not base64"));
            return null;
        }
        if (format == AudioFormat.ULAW_8K) {
            return wire;
        }
        return Pcm16.bytes(Resampler.convert(Pcm16.samples(wire), PCM_RATE, format.sampleRate()));
    }

    private void error(JsonNode error) {
        String code = error.path("code").asText("");
        switch (code) {
            case "response_cancel_not_active", "input_audio_buffer_commit_empty" -> {
                return;
            }
            case "conversation_already_has_active_response" -> {
                // The model began a reply itself as ours was asked for: ours follows once that one is done.
                responding = true;
                if (sent != null) {
                    queued.addFirst(sent);
                    sent = null;
                }
                return;
            }
            default -> fail(OpenAiErrors.of(provider(), error, "answered an error"));
        }
    }

    /** A close after an error event: the reason is {@code <type>.<code>} (an invalid key: ...invalid_api_key). */
    @Override
    protected ProviderError closedBy(int code, String reason) {
        ProviderError typed = OpenAiErrors.closed(provider(), code, reason, "closed the session");
        return typed != null ? typed : super.closedBy(code, reason);
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
