package dev.voiceplane.runtime.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenAI's streaming chat completions ({@code POST <base>/chat/completions}, {@code stream: true}, server-sent
 * events), which OpenAI-compatible servers (Groq, Together, OpenRouter, DeepInfra, vLLM, Ollama, llama.cpp) speak
 * too: the endpoint and its headers are per provider ({@link OpenAiCompatibleModels}, Azure OpenAI's deployment URL). {@code delta.content} pieces are the reply; the usage chunk
 * ({@code stream_options.include_usage}) gives the tokens (and the cached ones,
 * {@code prompt_tokens_details.cached_tokens}). Tools offered go in {@code tools}; the model's tool calls
 * come as {@code delta.tool_calls} fragments (the first of a call with its {@code id} and {@code function.name},
 * later ones with pieces of {@code function.arguments}), joined by their {@code index} and handed over whole when
 * the stream ends. History messages carry earlier calls ({@code tool_calls}) and their results ({@code role: tool}).
 *
 * <p>A model that sends no text within {@code firstTokenMillis} of the request has failed (the call then tries its
 * fallback models); after the first text, {@code timeoutMillis} of silence is a failure. A stream that is not
 * server-sent events of JSON (an HTML error page, a proxy's answer) fails at its first bad event.
 */
public final class OpenAiChat implements LanguageModel {

    /** Where a provider's completions are asked: the full URL and the headers (its key) of each request. */
    public record Endpoint(String url, Map<String, String> headers) {
    }

    private final Vertx vertx;
    private final EventLoopHttpClients http;
    private final ObjectMapper json;
    private final String provider;
    private final Endpoint endpoint;
    private final long timeoutMillis;
    private final long firstTokenMillis;

    public OpenAiChat(Vertx vertx, EventLoopHttpClients http, ObjectMapper json, String provider, Endpoint endpoint,
            long timeoutMillis, long firstTokenMillis) {
        this.vertx = vertx;
        this.http = http;
        this.json = json;
        this.provider = provider;
        this.endpoint = endpoint;
        this.timeoutMillis = timeoutMillis;
        this.firstTokenMillis = firstTokenMillis;
    }

    @Override
    public Runnable stream(ChatRequest request, Listener listener) {
        Stream stream = new Stream(listener);
        ObjectNode body = json.createObjectNode();
        if (request.model() != null) {
            body.put("model", request.model());
        }
        ArrayNode list = body.putArray("messages");
        for (ChatMessage message : request.messages()) {
            ObjectNode item = list.addObject().put("role", message.role()).put("content", message.content());
            if (!message.toolCalls().isEmpty()) {
                ArrayNode calls = item.putArray("tool_calls");
                for (ToolCall call : message.toolCalls()) {
                    calls.addObject().put("id", call.id()).put("type", "function").putObject("function")
                            .put("name", call.name()).put("arguments", call.arguments());
                }
            }
            if (message.toolCallId() != null) {
                item.put("tool_call_id", message.toolCallId());
            }
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolSpec tool : request.tools()) {
                ObjectNode function = tools.addObject().put("type", "function").putObject("function")
                        .put("name", tool.name());
                if (tool.description() != null) {
                    function.put("description", tool.description());
                }
                if (tool.parameters() != null) {
                    function.set("parameters", tool.parameters());
                }
            }
        }
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.maxTokens() != null) {
            body.put("max_tokens", request.maxTokens());
        }
        RequestOptions options = ServerSentEvents.post(endpoint.url(), timeoutMillis);
        endpoint.headers().forEach(options::putHeader);
        stream.armDeadline(firstTokenMillis, "no text within " + firstTokenMillis + " ms");
        stream.open(http, options, Buffer.buffer(body.toString()));
        return stream::cancel;
    }

    private final class Stream extends ServerSentEvents {
        private final Listener listener;
        private boolean sawDone;
        private long promptTokens;
        private long completionTokens;
        private long cachedTokens;
        /** The tool calls being streamed, by their index: id, name, arguments so far. */
        private final Map<Integer, String[]> toolCalls = new TreeMap<>();
        private final Map<Integer, StringBuilder> toolArguments = new TreeMap<>();

        Stream(Listener listener) {
            super(vertx, provider);
            this.listener = listener;
        }

        @Override
        protected void data(String data) {
            if ("[DONE]".equals(data)) {
                sawDone = true;
                complete();
                return;
            }
            JsonNode chunk;
            try {
                chunk = json.readTree(data);
            } catch (Exception e) {
                fail(ProviderError.protocol(provider, "an event that is not JSON"));
                return;
            }
            if (chunk.has("error")) {
                fail(ProviderError.unavailable(provider, "error: " + abbreviate(chunk.path("error").toString())));
                return;
            }
            JsonNode usage = chunk.path("usage");
            if (usage.isObject()) {
                promptTokens = usage.path("prompt_tokens").asLong(promptTokens);
                completionTokens = usage.path("completion_tokens").asLong(completionTokens);
                cachedTokens = usage.path("prompt_tokens_details").path("cached_tokens").asLong(cachedTokens);
            }
            JsonNode delta = chunk.path("choices").path(0).path("delta");
            JsonNode content = delta.path("content");
            if (content.isTextual() && !content.asText().isEmpty()) {
                stopDeadline();
                listener.text(content.asText());
            }
            for (JsonNode fragment : delta.path("tool_calls")) {
                // A tool call is the model's answer as much as text is: it meets the first-token deadline.
                stopDeadline();
                int index = fragment.path("index").asInt(toolCalls.size());
                String[] call = toolCalls.computeIfAbsent(index, i -> new String[2]);
                StringBuilder arguments = toolArguments.computeIfAbsent(index, i -> new StringBuilder());
                if (fragment.path("id").isTextual()) {
                    call[0] = fragment.path("id").asText();
                }
                JsonNode function = fragment.path("function");
                if (function.path("name").isTextual()) {
                    call[1] = call[1] == null ? function.path("name").asText() : call[1] + function.path("name").asText();
                }
                if (function.path("arguments").isTextual()) {
                    arguments.append(function.path("arguments").asText());
                }
                if (arguments.length() > 1_000_000) {
                    fail(ProviderError.protocol(provider, "tool call arguments of more than 1 MB"));
                    return;
                }
            }
        }

        @Override
        protected void ended() {
            if (sawDone) {
                complete();
            } else {
                fail(ProviderError.protocol(provider, "the stream ended before [DONE]"));
            }
        }

        private void complete() {
            if (!finish()) {
                return;
            }
            if (!toolCalls.isEmpty()) {
                List<ToolCall> calls = new ArrayList<>();
                toolCalls.forEach((index, call) -> {
                    String arguments = toolArguments.get(index).toString();
                    calls.add(new ToolCall(call[0] == null ? "call_" + index : call[0], call[1] == null ? "" : call[1],
                            arguments.isBlank() ? "{}" : arguments));
                });
                listener.toolCalls(List.copyOf(calls));
            }
            listener.done(ModelUsage.cached(promptTokens, cachedTokens, 0, completionTokens));
        }

        @Override
        protected void failed(ProviderError error) {
            listener.failed(error);
        }
    }
}
