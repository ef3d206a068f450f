package dev.voiceplane.runtime.provider.google;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.provider.AlternatingTurns;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.EventLoopHttpClients;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelUsage;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ServerSentEvents;
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.ToolSpec;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.RequestOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Google's Gemini API, streamed: {@code POST <base>/v1beta/models/<model>:streamGenerateContent?alt=sse} with
 * {@code x-goog-api-key}, answered with server-sent events, each a {@code GenerateContentResponse}.
 *
 * <p>The request: the system messages that open the context are joined into {@code systemInstruction}; the rest are
 * {@code contents} of role {@code user} or {@code model}, merged when consecutive messages have one role (the API
 * wants them to alternate) and opened by a user turn when the context does not begin with one (a greeting the
 * assistant said first; {@link AlternatingTurns}). A system message later in the conversation (a knowledge-base
 * passage, a failed transfer's note) is a text part of a user turn where it stands. The assistant's earlier tool calls are
 * {@code functionCall} parts ({@code id}, {@code name}, {@code args}) of its turn and their results
 * {@code functionResponse} parts ({@code id}, {@code name}, {@code response: {"result": <text>}}) leading the next user
 * turn, the role the current API documents for them. Tools are {@code tools[0].functionDeclarations} with their
 * parameters in the API's schema ({@link GeminiSchema} says what passes and what is stripped);
 * {@code generationConfig} carries {@code temperature} and {@code maxOutputTokens} when the assistant sets them.
 *
 * <p>The answer: text parts are the reply (parts marked {@code thought} are not); a {@code functionCall} part is a
 * tool call, whole, with its arguments as an object. Gemini may give a call no {@code id}: this client then makes one
 * ({@code call_<random>}), which call-service, the history and the {@code functionResponse} all carry. Gemini 3
 * models sign their function calls ({@code thoughtSignature}) and refuse a history whose calls come back without it:
 * the model keeps the signatures of the calls it made during the call and sends each back with its call; a call it
 * did not make (another model's, before a fallback or a squad's hand-off) is sent with the placeholder signature
 * Google documents for history from elsewhere ({@value #NO_SIGNATURE}). Usage is the last {@code usageMetadata}:
 * {@code promptTokenCount} (of it {@code cachedContentTokenCount} read from a cache), and
 * {@code candidatesTokenCount} plus {@code thoughtsTokenCount} (billed as output). The
 * stream ends when the answer ends; one that ends before a chunk with a {@code finishReason} has failed, and one that
 * finished for another reason than {@code STOP} or {@code MAX_TOKENS} (a safety block, a malformed function call)
 * before anything was said was refused, as was a prompt blocked outright ({@code promptFeedback.blockReason}). Errors
 * are {@code {"error":{"code","message","status"}}}, in the answer or inside the stream, typed by their code; a key
 * Google does not know is a 400 with reason {@code API_KEY_INVALID}, which is an auth failure. Deadlines as for
 * OpenAI's chat.
 */
public final class GeminiChat implements LanguageModel {

    /** The signature Google's documentation gives for function calls whose history comes from elsewhere. */
    public static final String NO_SIGNATURE = "skip_thought_signature_validator";

    private final Vertx vertx;
    private final EventLoopHttpClients http;
    private final ObjectMapper json;
    private final String provider;
    private final String baseUrl;
    private final String apiKey;
    private final long timeoutMillis;
    private final long firstTokenMillis;
    /** The thought signatures of the calls this model made, by tool call id (one call's worth: the model is per call). */
    private final Map<String, String> signatures = new ConcurrentHashMap<>();

    /** {@code baseUrl}: the API's address, before {@code /v1beta}. */
    public GeminiChat(Vertx vertx, EventLoopHttpClients http, ObjectMapper json, String provider, String baseUrl,
            String apiKey, long timeoutMillis, long firstTokenMillis) {
        this.vertx = vertx;
        this.http = http;
        this.json = json;
        this.provider = provider;
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.timeoutMillis = timeoutMillis;
        this.firstTokenMillis = firstTokenMillis;
    }

    /** The model id as the URL names it: the assistant's, without a leading {@code models/}. */
    static String modelPath(String model) {
        return model.startsWith("models/") ? model.substring("models/".length()) : model;
    }

    @Override
    public Runnable stream(ChatRequest request, Listener listener) {
        Stream stream = new Stream(listener);
        RequestOptions options = ServerSentEvents.post(baseUrl + "/v1beta/models/" + modelPath(request.model())
                + ":streamGenerateContent?alt=sse", timeoutMillis);
        if (apiKey != null) {
            options.putHeader("x-goog-api-key", apiKey);
        }
        stream.armDeadline(firstTokenMillis, "no text within " + firstTokenMillis + " ms");
        stream.open(http, options, Buffer.buffer(body(request).toString()));
        return stream::cancel;
    }

    /** The request's body in the Gemini API's format. */
    ObjectNode body(ChatRequest request) {
        ObjectNode body = json.createObjectNode();
        String system = AlternatingTurns.systemPrompt(request.messages());
        if (!system.isEmpty()) {
            body.putObject("systemInstruction").putArray("parts").addObject().put("text", system);
        }
        Map<String, String> names = new HashMap<>();
        request.messages().forEach(message -> message.toolCalls().forEach(call -> names.put(call.id(), call.name())));
        AlternatingTurns contents = new AlternatingTurns(body.putArray("contents"), "parts");
        for (ChatMessage message : AlternatingTurns.conversation(request.messages())) {
            add(contents, message, names);
        }
        contents.beginWith("user", json.createObjectNode().put("text", AlternatingTurns.CALL_STARTED));
        if (!request.tools().isEmpty()) {
            ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
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
        if (request.temperature() != null || request.maxTokens() != null) {
            ObjectNode config = body.putObject("generationConfig");
            if (request.temperature() != null) {
                config.put("temperature", request.temperature());
            }
            if (request.maxTokens() != null) {
                config.put("maxOutputTokens", request.maxTokens());
            }
        }
        return body;
    }

    private void add(AlternatingTurns contents, ChatMessage message, Map<String, String> names) {
        String content = message.content();
        switch (message.role()) {
            case "assistant" -> {
                if (content != null && !content.isBlank()) {
                    contents.add("model", json.createObjectNode().put("text", content));
                }
                boolean signed = message.toolCalls().stream().anyMatch(call -> signatures.containsKey(call.id()));
                for (ToolCall call : message.toolCalls()) {
                    ObjectNode part = json.createObjectNode();
                    ObjectNode function = part.putObject("functionCall").put("id", call.id()).put("name", call.name());
                    function.set("args", AlternatingTurns.arguments(json, call.arguments()));
                    String signature = signatures.get(call.id());
                    if (signature == null && !signed) {
                        // The first call of a step carries its signature; the placeholder stands in for one never had.
                        signature = NO_SIGNATURE;
                        signed = true;
                    }
                    if (signature != null) {
                        part.put("thoughtSignature", signature);
                    }
                    contents.add("model", part);
                }
            }
            case "tool" -> {
                ObjectNode part = json.createObjectNode();
                ObjectNode response = part.putObject("functionResponse").put("id", message.toolCallId())
                        .put("name", names.getOrDefault(message.toolCallId(), "tool"));
                response.putObject("response").put("result", content == null ? "" : content);
                // Results lead their turn, before any text of it.
                contents.addResult("user", part, existing -> existing.has("functionResponse"));
            }
            default -> {
                if (content != null && !content.isBlank()) {
                    contents.add("user", json.createObjectNode().put("text", content));
                }
            }
        }
    }

    /** The failure an error's {@code code} (an HTTP status) says; an invalid key is an auth failure. */
    static ProviderError.Kind kindOf(int code, String body) {
        if (body != null && (body.contains("API_KEY_INVALID") || body.contains("API key not valid"))) {
            return ProviderError.Kind.AUTH;
        }
        return ProviderError.ofStatus("", code, "").kind();
    }

    private final class Stream extends ServerSentEvents {
        private final Listener listener;
        private final List<ToolCall> calls = new ArrayList<>();
        private long promptTokens;
        private long completionTokens;
        private long cachedTokens;
        private String finishReason;
        private boolean answered;

        Stream(Listener listener) {
            super(vertx, provider);
            this.listener = listener;
        }

        @Override
        protected ProviderError refusal(int status, String body) {
            ProviderError error = super.refusal(status, body);
            return new ProviderError(provider, kindOf(status, body), error.detail());
        }

        @Override
        protected void data(String data) {
            JsonNode chunk;
            try {
                chunk = json.readTree(data);
            } catch (Exception e) {
                fail(ProviderError.protocol(provider, "an event that is not JSON"));
                return;
            }
            JsonNode error = chunk.path("error");
            if (error.isObject()) {
                fail(new ProviderError(provider, kindOf(error.path("code").asInt(500), error.toString()),
                        "error: " + error.path("status").asText("") + " " + abbreviate(error.path("message").asText(""))));
                return;
            }
            JsonNode usage = chunk.path("usageMetadata");
            if (usage.isObject()) {
                promptTokens = Math.max(promptTokens, usage.path("promptTokenCount").asLong(0));
                cachedTokens = Math.max(cachedTokens, usage.path("cachedContentTokenCount").asLong(0));
                completionTokens = Math.max(completionTokens, usage.path("candidatesTokenCount").asLong(0)
                        + usage.path("thoughtsTokenCount").asLong(0));
            }
            String blocked = chunk.path("promptFeedback").path("blockReason").asText(null);
            if (blocked != null && !answered) {
                fail(ProviderError.refused(provider, "the prompt was blocked: " + blocked));
                return;
            }
            JsonNode candidate = chunk.path("candidates").path(0);
            for (JsonNode part : candidate.path("content").path("parts")) {
                if (part.path("thought").asBoolean(false)) {
                    continue;
                }
                String text = part.path("text").asText("");
                if (!text.isEmpty()) {
                    stopDeadline();
                    answered = true;
                    listener.text(text);
                }
                JsonNode function = part.path("functionCall");
                if (function.isObject()) {
                    // A tool call is the model's answer as much as text is: it meets the first-token deadline.
                    stopDeadline();
                    answered = true;
                    String id = function.path("id").asText("");
                    if (id.isEmpty()) {
                        id = "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
                    }
                    JsonNode args = function.path("args");
                    calls.add(new ToolCall(id, function.path("name").asText(""), args.isObject() ? args.toString()
                            : "{}"));
                    if (part.path("thoughtSignature").isTextual()) {
                        signatures.put(id, part.path("thoughtSignature").asText());
                    }
                }
            }
            String reason = candidate.path("finishReason").asText("");
            if (!reason.isEmpty() && !"FINISH_REASON_UNSPECIFIED".equals(reason)) {
                finishReason = reason;
            }
        }

        @Override
        protected void ended() {
            if (finishReason == null) {
                fail(ProviderError.protocol(provider, "the stream ended before a finishReason"));
            } else if (!answered && !"STOP".equals(finishReason) && !"MAX_TOKENS".equals(finishReason)) {
                fail(ProviderError.refused(provider, "finished with " + finishReason + " before saying anything"));
            } else if (finish()) {
                if (!calls.isEmpty()) {
                    listener.toolCalls(List.copyOf(calls));
                }
                listener.done(ModelUsage.cached(promptTokens, cachedTokens, 0, completionTokens));
            }
        }

        @Override
        protected void failed(ProviderError error) {
            listener.failed(error);
        }
    }
}
