package dev.voiceplane.runtime.provider.google;

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
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.ToolSpec;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * One call on a Gemini Live model: the Gemini API's {@code BidiGenerateContent} WebSocket with the key in
 * {@code x-goog-api-key} (the header Google's SDKs send; the key stays out of the URL and its logs).
 *
 * <p>The first frame is {@code setup}: {@code model: models/<id>}, {@code generationConfig} with
 * {@code responseModalities: [AUDIO]}, the voice ({@code speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName}),
 * {@code temperature} and {@code maxOutputTokens}; the instructions as {@code systemInstruction}; the tools as
 * {@code functionDeclarations} (parameters in Gemini's schema, {@link GeminiSchema}); the caller's and the model's
 * transcriptions ({@code inputAudioTranscription}, {@code outputAudioTranscription}); and automatic activity detection
 * whose start of speech interrupts the reply ({@code realtimeInputConfig}). Nothing else goes before
 * {@code setupComplete}, which must come within the deadline: what the call sends meanwhile is held (the caller's
 * audio at most the deadline's worth). A hand-off's conversation so far then goes as a {@code clientContent} of
 * {@code user} and {@code model} turns with {@code turnComplete: false} (context, no reply). The caller's audio goes
 * as {@code realtimeInput.audio}, PCM16 at 16 kHz ({@code audio/pcm;rate=16000}): a phone call's μ-law 8 kHz decoded
 * and resampled, a web call's PCM as it is. The model's audio is PCM16 at 24 kHz, resampled to the call's format.
 *
 * <p>Gemini has no replies of its own ids, no reply to ask for, no cancel and no truncate. Here a reply is what the
 * model says from its first {@code serverContent} (audio, words) or {@code toolCall} to its {@code turnComplete}
 * (its audio item complete at {@code generationComplete}), its {@code interrupted} (the caller spoke over it: Gemini's
 * barge-in, told as the caller's speech starting and the reply cancelled) or its tool call; the runtime names
 * replies and their one audio item. A reply the runtime asks for ({@link #respond}) is a {@code clientContent} user
 * turn with the request's instructions ("say the following words as written"), or, after tool results, the
 * {@code toolResponse} itself (Gemini goes on by itself); one at a time, as for OpenAI. The caller's words
 * ({@code inputTranscription}) start the caller's speech when no reply is being made (a caller who speaks over audio
 * Gemini has finished making but the call still plays), and are the caller's utterance once the model answered it;
 * the model's words ({@code outputTranscription}) are the reply's. Usage comes as {@code usageMetadata}, per turn
 * (the largest counts of the reply are kept; counts outside a reply are reported on their own). {@code goAway} is
 * logged: the close that follows ends the call. Nothing within the deadline after the opening or after a reply is
 * asked for is a hung session.
 */
final class GeminiLiveSession extends ProviderSocket implements RealtimeSession {

    private static final Logger LOG = Logger.getLogger(GeminiLiveSession.class);
    static final int INPUT_RATE = 16000;
    static final int OUTPUT_RATE = 24000;
    static final String INPUT_MIME = "audio/pcm;rate=" + INPUT_RATE;

    private record Request(String instructions, String tag) {
    }

    private record Held(String frame, boolean audio) {
    }

    /**
     * The counts of one {@code usageMetadata}: the prompt's (with the tool-use prompt) and the response's (with the
     * thoughts), and each by modality ({@code TEXT}, {@code AUDIO}, ...), kept for usage by modality.
     */
    record Usage(long promptTokens, long responseTokens, long toolUsePromptTokens, long thoughtsTokens,
            long cachedTokens, Map<String, Long> promptByModality, Map<String, Long> responseByModality) {

        long input() {
            return promptTokens + toolUsePromptTokens;
        }

        long output() {
            return responseTokens + thoughtsTokens;
        }

        static Usage of(JsonNode usage) {
            return new Usage(usage.path("promptTokenCount").asLong(0), usage.path("responseTokenCount").asLong(0),
                    usage.path("toolUsePromptTokenCount").asLong(0), usage.path("thoughtsTokenCount").asLong(0),
                    usage.path("cachedContentTokenCount").asLong(0), byModality(usage.path("promptTokensDetails")),
                    byModality(usage.path("responseTokensDetails")));
        }

        private static Map<String, Long> byModality(JsonNode details) {
            Map<String, Long> counts = new LinkedHashMap<>();
            for (JsonNode detail : details) {
                counts.merge(detail.path("modality").asText("MODALITY_UNSPECIFIED"),
                        detail.path("tokenCount").asLong(0), Long::sum);
            }
            return Map.copyOf(counts);
        }
    }

    /** A reply under way: its ids, its words, the largest usage counts it was given. */
    private static final class Reply {
        final String id;
        final String itemId;
        final StringBuilder words = new StringBuilder();
        boolean spoke;
        boolean audioDone;
        long inputTokens;
        long outputTokens;

        Reply(String id) {
            this.id = id;
            this.itemId = id + "-audio";
        }
    }

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private final AnswerDeadline answer;
    private final int maxHeldAudio;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private final ArrayDeque<Request> queued = new ArrayDeque<>();
    private final List<ObjectNode> results = new ArrayList<>();
    private final Map<String, String> toolNames = new HashMap<>();
    private final Set<String> cancelledCalls = new HashSet<>();
    private final Set<String> calls = new HashSet<>();
    private final StringBuilder callerWords = new StringBuilder();
    private boolean setUp;
    private int heldAudio;
    private Request sent;
    private boolean responding;
    private Reply reply;
    private int replies;
    private boolean endedBeforeTurnComplete;
    private boolean callerSpeaking;

    private GeminiLiveSession(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        // The setup is held until the socket opens; the rest until setupComplete (below).
        super(context, GoogleModels.PROVIDER, 16);
        this.format = format;
        this.listener = listener;
        this.json = json;
        this.maxHeldAudio = (int) (deadlineMillis / 20) + 50;
        this.answer = new AnswerDeadline(context, deadlineMillis, () -> fail(ProviderError.timeout(provider(),
                "answered nothing within " + deadlineMillis + " ms")));
    }

    static GeminiLiveSession open(Context context, WebSocketClient client, String url, String apiKey,
            RealtimeRequest request, AudioFormat format, Listener listener, ObjectMapper json, long deadlineMillis) {
        GeminiLiveSession session = new GeminiLiveSession(context, format, listener, json, deadlineMillis);
        session.sendText(setup(json, request).toString());
        ObjectNode history = session.history(request.conversation());
        if (history != null) {
            session.deliver(history.toString(), false);
        }
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        if (apiKey != null) {
            options.addHeader("x-goog-api-key", apiKey);
        }
        session.connect(client, options, deadlineMillis);
        return session;
    }

    /** The {@code setup} message: the model, its voice and settings, instructions, tools, transcriptions, VAD. */
    static ObjectNode setup(ObjectMapper json, RealtimeRequest request) {
        ObjectNode message = json.createObjectNode();
        ObjectNode setup = message.putObject("setup");
        setup.put("model", "models/" + GeminiChat.modelPath(request.model()));
        ObjectNode generation = setup.putObject("generationConfig");
        generation.putArray("responseModalities").add("AUDIO");
        if (request.voice() != null) {
            generation.putObject("speechConfig").putObject("voiceConfig").putObject("prebuiltVoiceConfig")
                    .put("voiceName", request.voice());
        }
        if (request.temperature() != null) {
            generation.put("temperature", request.temperature());
        }
        if (request.maxOutputTokens() != null) {
            generation.put("maxOutputTokens", request.maxOutputTokens());
        }
        if (request.instructions() != null && !request.instructions().isBlank()) {
            setup.putObject("systemInstruction").putArray("parts").addObject().put("text", request.instructions());
        }
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = setup.putArray("tools").addObject().putArray("functionDeclarations");
            for (ToolSpec tool : request.tools()) {
                ObjectNode declaration = declarations.addObject().put("name", tool.name());
                if (tool.description() != null && !tool.description().isBlank()) {
                    declaration.put("description", tool.description());
                }
                ObjectNode parameters = GeminiSchema.parameters(json, tool.parameters());
                if (parameters != null) {
                    declaration.set("parameters", parameters);
                }
            }
        }
        ObjectNode input = setup.putObject("realtimeInputConfig");
        input.putObject("automaticActivityDetection").put("disabled", false).put("prefixPaddingMs", 300)
                .put("silenceDurationMs", 500);
        input.put("activityHandling", "START_OF_ACTIVITY_INTERRUPTS");
        setup.putObject("inputAudioTranscription");
        setup.putObject("outputAudioTranscription");
        return message;
    }

    /** The conversation so far as context turns ({@code turnComplete: false}: no reply), or null when none. */
    private ObjectNode history(List<ChatMessage> conversation) {
        ObjectNode message = json.createObjectNode();
        ObjectNode content = message.putObject("clientContent");
        ArrayNode turns = content.putArray("turns");
        for (ChatMessage said : conversation) {
            if (said.content() == null || said.content().isBlank()
                    || !("user".equals(said.role()) || "assistant".equals(said.role()))) {
                continue;
            }
            turns.addObject().put("role", "user".equals(said.role()) ? "user" : "model").putArray("parts")
                    .addObject().put("text", said.content());
        }
        content.put("turnComplete", false);
        return turns.isEmpty() ? null : message;
    }

    /** The socket is open: {@code setupComplete} must come within the deadline. */
    @Override
    protected void opened() {
        answer.expect();
    }

    /** Sends a frame once the setup is complete, holding it until then (the oldest audio dropped past a bound). */
    private void deliver(String frame, boolean audio) {
        if (isClosed()) {
            return;
        }
        if (setUp) {
            sendText(frame);
            return;
        }
        held.add(new Held(frame, audio));
        if (audio && ++heldAudio > maxHeldAudio) {
            for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
                if (it.next().audio()) {
                    it.remove();
                    heldAudio--;
                    break;
                }
            }
        }
    }

    // ---- what the call sends -----------------------------------------------------------------------------------

    @Override
    public void audio(byte[] audio) {
        if (isClosed()) {
            return;
        }
        byte[] wire = Pcm16.bytes(Resampler.convert(format.toPcm(audio), format.sampleRate(), INPUT_RATE));
        deliver("{\"realtimeInput\":{\"audio\":{\"mimeType\":\"" + INPUT_MIME + "\",\"data\":\""
                + Base64.getEncoder().encodeToString(wire) + "\"}}}", true);
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

    /** A keypad entry: a user turn of text, not complete (the reply asked for next completes it). */
    @Override
    public void userText(String text) {
        if (isClosed()) {
            return;
        }
        ObjectNode message = json.createObjectNode();
        ObjectNode content = message.putObject("clientContent");
        content.putArray("turns").addObject().put("role", "user").putArray("parts").addObject().put("text", text);
        content.put("turnComplete", false);
        deliver(message.toString(), false);
    }

    /**
     * Asks for a reply: the tool results waiting go first (a {@code toolResponse}, after which Gemini goes on by
     * itself); then the request's instructions as a user turn, or, with none and no results, an empty complete turn.
     */
    private void send(Request request) {
        sent = request;
        responding = true;
        boolean answered = flushResults();
        if (request.instructions() != null) {
            ObjectNode message = json.createObjectNode();
            ObjectNode content = message.putObject("clientContent");
            content.putArray("turns").addObject().put("role", "user").putArray("parts").addObject()
                    .put("text", request.instructions());
            content.put("turnComplete", true);
            deliver(message.toString(), false);
        } else if (!answered) {
            deliver("{\"clientContent\":{\"turnComplete\":true}}", false);
        }
        answer.expect();
    }

    /** Sends the tool results not yet sent as one {@code toolResponse}; whether there were any. */
    private boolean flushResults() {
        if (results.isEmpty()) {
            return false;
        }
        ObjectNode message = json.createObjectNode();
        ArrayNode responses = message.putObject("toolResponse").putArray("functionResponses");
        results.forEach(responses::add);
        results.clear();
        deliver(message.toString(), false);
        return true;
    }

    /**
     * Gemini cannot be told to stop a reply: the requests of {@code tag} not yet sent are dropped, and a reply asked
     * for or under way plays out at Gemini's end, still tagged as asked, so the call drops it (the caller speaking over
     * it stops it).
     */
    @Override
    public void cancel(String tag) {
        if (isClosed() || tag == null) {
            return;
        }
        queued.removeIf(request -> tag.equals(request.tag()));
    }

    /**
     * Gemini has no truncate: the model keeps in its context the whole reply it made, though the caller heard only
     * part of it (docs/voice-runtime.md, "Gemini Live, as run"). Nothing is sent.
     */
    @Override
    public void truncate(String itemId, long heardMillis) {
    }

    @Override
    public void toolResult(String callId, String output) {
        if (isClosed() || callId == null || cancelledCalls.contains(callId)) {
            return;
        }
        ObjectNode response = json.createObjectNode().put("id", callId)
                .put("name", toolNames.getOrDefault(callId, "tool"));
        response.putObject("response").put("result", output == null ? "" : output);
        results.add(response);
    }

    // ---- what Gemini sends -------------------------------------------------------------------------------------

    /** Google sends its JSON messages in binary frames; they are read as text. */
    @Override
    protected void binary(Buffer frame) {
        text(frame.toString(StandardCharsets.UTF_8));
    }

    @Override
    protected void text(String text) {
        answer.answered();
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        if (message == null || !message.isObject()) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        JsonNode usage = message.path("usageMetadata");
        if (message.has("setupComplete")) {
            setUp();
        }
        if (message.path("serverContent").isObject()) {
            serverContent(message.path("serverContent"), usage);
        } else if (message.path("toolCall").isObject()) {
            toolCall(message.path("toolCall"), usage);
        } else if (message.path("toolCallCancellation").isObject()) {
            for (JsonNode id : message.path("toolCallCancellation").path("ids")) {
                cancelledCalls.add(id.asText());
                results.removeIf(result -> id.asText().equals(result.path("id").asText()));
            }
            LOG.debugf("gemini live: tool calls cancelled: %s", message.path("toolCallCancellation").path("ids"));
            usage(usage);
        } else if (message.path("goAway").isObject()) {
            LOG.warnf("gemini live: the server will close the session in %s",
                    message.path("goAway").path("timeLeft").asText("?"));
            usage(usage);
        } else {
            usage(usage);
        }
    }

    private void setUp() {
        if (setUp) {
            return;
        }
        setUp = true;
        while (!held.isEmpty() && !isClosed()) {
            sendText(held.poll().frame());
        }
        heldAudio = 0;
        if (sent != null) {
            answer.expect(); // a reply asked for before the setup completed is asked for now: its deadline starts
        }
    }

    private void serverContent(JsonNode content, JsonNode usage) {
        String heard = content.path("inputTranscription").path("text").asText("");
        if (!heard.isEmpty()) {
            callerWords(heard);
        }
        if (content.path("interrupted").asBoolean(false)) {
            usage(usage);
            interrupted();
            return;
        }
        List<byte[]> audio = new ArrayList<>();
        for (JsonNode part : content.path("modelTurn").path("parts")) {
            JsonNode inline = part.path("inlineData");
            if (inline.isObject() && inline.path("mimeType").asText("audio/pcm").startsWith("audio/pcm")) {
                byte[] decoded = decode(inline.path("data").asText(""));
                if (decoded == null) {
                    return;
                }
                audio.add(decoded);
            }
        }
        String said = content.path("outputTranscription").path("text").asText("");
        if (!audio.isEmpty() || !said.isEmpty()) {
            Reply current = begin();
            current.spoke = true;
            for (byte[] chunk : audio) {
                listener.audio(current.id, current.itemId, chunk);
            }
            if (!said.isEmpty()) {
                current.words.append(said);
                listener.transcriptDelta(current.id, current.itemId, said);
            }
        }
        if (reply != null) {
            count(reply, usage);
        } else {
            usage(usage);
        }
        if (content.path("generationComplete").asBoolean(false) && reply != null && reply.spoke
                && !reply.audioDone) {
            reply.audioDone = true;
            listener.transcriptDone(reply.id, reply.itemId, reply.words.toString().trim());
            listener.itemDone(reply.id, reply.itemId);
        }
        if (content.path("turnComplete").asBoolean(false)) {
            turnComplete();
        }
    }

    /** The caller's words: the start of the caller's speech when no reply is being made. */
    private void callerWords(String text) {
        if (!callerSpeaking && reply == null && !text.isBlank()) {
            callerTranscript();
            callerSpeaking = true;
            listener.speechStarted();
        }
        callerWords.append(text);
    }

    /** The caller's words so far, as one utterance. */
    private void callerTranscript() {
        String words = callerWords.toString().replaceAll("\\s+", " ").trim();
        callerWords.setLength(0);
        if (!words.isEmpty()) {
            listener.callerTranscript(null, words);
        }
    }

    /** The reply under way, or a new one (the caller's turn, if any, ended: the model answers it). */
    private Reply begin() {
        if (reply != null) {
            return reply;
        }
        endedBeforeTurnComplete = false;
        if (callerSpeaking) {
            callerSpeaking = false;
            listener.speechStopped();
        }
        callerTranscript();
        String tag = sent == null ? null : sent.tag();
        sent = null;
        responding = true;
        reply = new Reply("gemini-reply-" + (++replies));
        listener.responseStarted(reply.id, tag);
        return reply;
    }

    /** The caller spoke over the reply being made: the words heard since it began are the new utterance's. */
    private void interrupted() {
        if (!callerSpeaking) {
            callerSpeaking = true;
            listener.speechStarted();
        }
        if (reply != null) {
            end("cancelled", true);
        } else if (sent != null) {
            // Gemini dropped the reply asked for before it began: the next one is its answer to the caller.
            sent = null;
            responding = false;
            endedBeforeTurnComplete = true;
            if (!isClosed() && !queued.isEmpty()) {
                send(queued.poll());
            }
        }
    }

    private void turnComplete() {
        if (reply != null) {
            end("completed", false);
            return;
        }
        if (endedBeforeTurnComplete) {
            endedBeforeTurnComplete = false; // the turn of a reply already ended (interrupted, a tool call)
            return;
        }
        if (sent != null) {
            begin(); // the model said nothing to what was asked: an empty reply
            end("completed", false);
        }
    }

    private void toolCall(JsonNode toolCall, JsonNode usage) {
        Reply current = begin();
        for (JsonNode function : toolCall.path("functionCalls")) {
            String id = function.path("id").asText("");
            if (id.isEmpty()) {
                id = "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
            }
            String name = function.path("name").asText("");
            if (name.isEmpty() || !calls.add(id)) {
                continue;
            }
            toolNames.put(id, name);
            JsonNode args = function.path("args");
            listener.toolCall(current.id, new ToolCall(id, name, args.isObject() ? args.toString() : "{}"));
        }
        count(current, usage);
        end("completed", true);
    }

    /** Ends the reply under way with {@code status}; the next request asked for goes out. */
    private void end(String status, boolean beforeTurnComplete) {
        Reply ended = reply;
        reply = null;
        responding = false;
        endedBeforeTurnComplete = beforeTurnComplete;
        if (ended.spoke && !ended.audioDone) {
            ended.audioDone = true;
            if (!"cancelled".equals(status)) {
                listener.transcriptDone(ended.id, ended.itemId, ended.words.toString().trim());
            }
            listener.itemDone(ended.id, ended.itemId);
        }
        if (!callerSpeaking) {
            callerTranscript(); // late words of the utterance this reply answered
        }
        listener.responseDone(ended.id, status, ended.inputTokens, ended.outputTokens);
        if (!isClosed() && !responding && !queued.isEmpty()) {
            send(queued.poll());
        }
    }

    private void count(Reply current, JsonNode usage) {
        if (usage.isObject()) {
            Usage counted = Usage.of(usage);
            LOG.tracef("gemini live usage: %s", counted);
            current.inputTokens = Math.max(current.inputTokens, counted.input());
            current.outputTokens = Math.max(current.outputTokens, counted.output());
        }
    }

    /** Counts given outside a reply (after its end): reported on their own. */
    private void usage(JsonNode usage) {
        if (usage.isObject()) {
            if (reply != null) {
                count(reply, usage);
                return;
            }
            Usage counted = Usage.of(usage);
            if (counted.input() > 0 || counted.output() > 0) {
                listener.responseDone("gemini-usage-" + (++replies), "completed", counted.input(), counted.output());
            }
        }
    }

    private byte[] decode(String base64) {
        byte[] wire;
        try {
            wire = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            fail(ProviderError.protocol(provider(), "sent audio that is not base64"));
            return null;
        }
        return format.fromPcm(Pcm16.samples(wire), OUTPUT_RATE);
    }

    /**
     * Gemini ends a session it refuses with a close whose reason says why: a key it does not know (auth), a quota
     * exceeded (rate-limited), an invalid argument (1007) or a model or operation it does not serve (1008) — a
     * setting refused — and its internal errors (1011, unavailable).
     */
    @Override
    protected ProviderError closedBy(int code, String reason) {
        String said = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
        String detail = "closed the session (" + code + (reason == null || reason.isBlank() ? "" : " " + reason)
                + ")";
        if (said.contains("api key") || said.contains("api_key") || said.contains("permission")
                || said.contains("unauthenticated")) {
            return ProviderError.auth(provider(), detail);
        }
        if (said.contains("quota") || said.contains("resource_exhausted") || said.contains("rate limit")) {
            return new ProviderError(provider(), ProviderError.Kind.RATE_LIMITED, detail);
        }
        return switch (code) {
            case 1007, 1008 -> ProviderError.refused(provider(), detail);
            case 1011 -> ProviderError.unavailable(provider(), detail);
            default -> super.closedBy(code, reason);
        };
    }

    @Override
    public void close() {
        answer.cancel();
        super.close();
    }

    @Override
    protected void failed(ProviderError error) {
        answer.cancel();
        callerTranscript(); // the caller's words heard before the failure stay in the transcript
        listener.failed(error);
    }
}
