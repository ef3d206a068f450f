package dev.voiceplane.runtime.provider.anthropic;

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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Anthropic's Messages API, streamed: {@code POST <base>/v1/messages} with {@code x-api-key},
 * {@code anthropic-version: 2023-06-01} and {@code stream: true}, answered with server-sent events.
 *
 * <p>The request: {@code model} as the assistant names it; {@code max_tokens}, which the API requires, is
 * {@code model.maxTokens} or {@value #DEFAULT_MAX_TOKENS}; {@code temperature} (Anthropic takes 0 to 1: a higher
 * one is sent as 1). The system messages that open the context are joined into {@code system}; a system message later
 * in the conversation (the runtime adds some: a knowledge-base passage before the caller's words, a failed transfer's
 * note) has no place there, since {@code system} comes before every turn: it is sent where it stands, as a text block
 * of a user turn, so the model reads it in order. Consecutive messages of one role are merged into one turn (the API
 * wants user and assistant turns to alternate), and a context that does not begin with a user turn (a greeting the
 * assistant said first, or no turn yet) begins with one ({@link AlternatingTurns}). Tools go in {@code tools} as
 * {@code {name, description, input_schema}}; the assistant's earlier calls are {@code tool_use} blocks of its turn and
 * their results {@code tool_result} blocks ({@code tool_use_id}) at the head of the next user turn.
 *
 * <p>The answer: {@code text_delta} pieces are the reply; a {@code content_block_start} of type {@code tool_use}
 * opens a tool call ({@code id}, {@code name}) whose arguments come as {@code input_json_delta} fragments, handed over
 * whole at the end; {@code message_start} gives the input tokens (with the cache's: {@code cache_read_input_tokens}
 * read from it, {@code cache_creation_input_tokens} written to it) and {@code message_delta} the output tokens (both
 * as running totals); {@code message_stop} ends it, and a stream that ends before it has failed. An {@code error} event
 * is typed by its {@code error.type} ({@code overloaded_error} unavailable, {@code rate_limit_error} rate-limited, ...),
 * an HTTP error by its status (401 auth, 429 rate-limited, 529 overloaded and 5xx unavailable, 400 refused). Deadlines
 * as for OpenAI's chat: the first text or tool call within {@code firstTokenMillis}, then no silence longer than
 * {@code timeoutMillis}.
 */
public final class AnthropicChat implements LanguageModel {

    /** The API version this client speaks. */
    public static final String VERSION = "2023-06-01";

    /** {@code max_tokens} when the assistant sets no {@code maxTokens}: enough for any spoken reply. */
    public static final int DEFAULT_MAX_TOKENS = 1024;

    private final Vertx vertx;
    private final EventLoopHttpClients http;
    private final ObjectMapper json;
    private final String provider;
    private final String url;
    private final String apiKey;
    private final long timeoutMillis;
    private final long firstTokenMillis;

    /** {@code url}: the messages endpoint, {@code <base>/v1/messages}. */
    public AnthropicChat(Vertx vertx, EventLoopHttpClients http, ObjectMapper json, String provider, String url,
            String apiKey, long timeoutMillis, long firstTokenMillis) {
        this.vertx = vertx;
        this.http = http;
        this.json = json;
        this.provider = provider;
        this.url = url;
        this.apiKey = apiKey;
        this.timeoutMillis = timeoutMillis;
        this.firstTokenMillis = firstTokenMillis;
    }

    @Override
    public Runnable stream(ChatRequest request, Listener listener) {
        Stream stream = new Stream(listener);
        RequestOptions options = ServerSentEvents.post(url, timeoutMillis)
                .putHeader("anthropic-version", VERSION);
        if (apiKey != null) {
            options.putHeader("x-api-key", apiKey);
        }
        stream.armDeadline(firstTokenMillis, "no text within " + firstTokenMillis + " ms");
        stream.open(http, options, Buffer.buffer(body(request).toString()));
        return stream::cancel;
    }

    /** The request's body in Anthropic's format. */
    ObjectNode body(ChatRequest request) {
        ObjectNode body = json.createObjectNode();
        body.put("model", request.model());
        body.put("max_tokens", request.maxTokens() != null ? request.maxTokens() : DEFAULT_MAX_TOKENS);
        String system = AlternatingTurns.systemPrompt(request.messages());
        if (!system.isEmpty()) {
            body.put("system", system);
        }
        AlternatingTurns turns = new AlternatingTurns(body.putArray("messages"), "content");
        for (ChatMessage message : AlternatingTurns.conversation(request.messages())) {
            add(turns, message);
        }
        turns.beginWith("user", text(AlternatingTurns.CALL_STARTED));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = body.putArray("tools");
            for (ToolSpec tool : request.tools()) {
                ObjectNode item = tools.addObject().put("name", tool.name());
                if (tool.description() != null && !tool.description().isBlank()) {
                    item.put("description", tool.description());
                }
                ObjectNode schema = tool.parameters() instanceof ObjectNode given ? given.deepCopy()
                        : json.createObjectNode();
                if (!schema.has("type")) {
                    schema.put("type", "object");
                }
                if ("object".equals(schema.path("type").asText()) && !schema.has("properties")) {
                    schema.putObject("properties");
                }
                item.set("input_schema", schema);
            }
        }
        if (request.temperature() != null) {
            body.put("temperature", Math.max(0, Math.min(1, request.temperature())));
        }
        body.put("stream", true);
        return body;
    }

    /** Adds one message to the turns (merged into the last turn when it has the same role). */
    private void add(AlternatingTurns turns, ChatMessage message) {
        String content = message.content();
        switch (message.role()) {
            case "assistant" -> {
                if (content != null && !content.isBlank()) {
                    turns.add("assistant", text(content.strip()));
                }
                for (ToolCall call : message.toolCalls()) {
                    ObjectNode use = json.createObjectNode().put("type", "tool_use").put("id", toolId(call.id()))
                            .put("name", call.name());
                    use.set("input", AlternatingTurns.arguments(json, call.arguments()));
                    turns.add("assistant", use);
                }
            }
            case "tool" -> {
                ObjectNode result = json.createObjectNode().put("type", "tool_result")
                        .put("tool_use_id", toolId(message.toolCallId()));
                if (content != null && !content.isEmpty()) {
                    result.put("content", content);
                }
                // Results lead their turn: the API wants them before any text of it.
                turns.addResult("user", result, block -> "tool_result".equals(block.path("type").asText()));
            }
            default -> {
                // The caller's words, and a system message inside the conversation, where it stands.
                if (content != null && !content.isBlank()) {
                    turns.add("user", text(content));
                }
            }
        }
    }

    private ObjectNode text(String text) {
        return json.createObjectNode().put("type", "text").put("text", text);
    }

    /** Anthropic takes tool ids of letters, digits, {@code _} and {@code -}: another provider's id is made so. */
    private static String toolId(String id) {
        return id == null || id.isEmpty() ? "call" : id.replaceAll("[^a-zA-Z0-9_-]", "_");
    }

    /** The failure an {@code error} event's {@code error.type} says. */
    static ProviderError.Kind kindOf(String type) {
        return switch (type) {
            case "authentication_error", "permission_error" -> ProviderError.Kind.AUTH;
            case "rate_limit_error" -> ProviderError.Kind.RATE_LIMITED;
            case "timeout_error" -> ProviderError.Kind.TIMEOUT;
            case "invalid_request_error", "not_found_error", "request_too_large" -> ProviderError.Kind.REFUSED;
            default -> ProviderError.Kind.UNAVAILABLE;
        };
    }

    private final class Stream extends ServerSentEvents {
        private final Listener listener;
        private long promptTokens;
        private long completionTokens;
        private long cacheReadTokens;
        private long cacheWriteTokens;
        /** The tool calls of the answer, by content block index: id, name. */
        private final Map<Integer, String[]> toolCalls = new TreeMap<>();
        private final Map<Integer, StringBuilder> toolArguments = new TreeMap<>();

        Stream(Listener listener) {
            super(vertx, provider);
            this.listener = listener;
        }

        @Override
        protected void data(String data) {
            JsonNode event;
            try {
                event = json.readTree(data);
            } catch (Exception e) {
                fail(ProviderError.protocol(provider, "an event that is not JSON"));
                return;
            }
            switch (event.path("type").asText()) {
                case "message_start" -> usage(event.path("message").path("usage"));
                case "content_block_start" -> {
                    JsonNode block = event.path("content_block");
                    int index = event.path("index").asInt(toolCalls.size());
                    if ("tool_use".equals(block.path("type").asText())) {
                        // A tool call is the model's answer as much as text is: it meets the first-token deadline.
                        stopDeadline();
                        toolCalls.put(index, new String[] {block.path("id").asText(null),
                                block.path("name").asText("")});
                        toolArguments.put(index, new StringBuilder());
                    } else if ("text".equals(block.path("type").asText())) {
                        text(block.path("text").asText(""));
                    }
                }
                case "content_block_delta" -> {
                    JsonNode delta = event.path("delta");
                    switch (delta.path("type").asText()) {
                        case "text_delta" -> text(delta.path("text").asText(""));
                        case "input_json_delta" -> {
                            StringBuilder arguments = toolArguments.get(event.path("index").asInt(-1));
                            if (arguments == null) {
                                fail(ProviderError.protocol(provider, "tool input for a block that is not a tool call"));
                                return;
                            }
                            arguments.append(delta.path("partial_json").asText(""));
                            if (arguments.length() > 1_000_000) {
                                fail(ProviderError.protocol(provider, "tool call arguments of more than 1 MB"));
                            }
                        }
                        default -> {
                            // Thinking and signature deltas are not spoken.
                        }
                    }
                }
                case "message_delta" -> usage(event.path("usage"));
                case "message_stop" -> complete();
                case "error" -> {
                    JsonNode error = event.path("error");
                    String type = error.path("type").asText("error");
                    fail(new ProviderError(provider, kindOf(type), "error: " + type + ": "
                            + abbreviate(error.path("message").asText(""))));
                }
                default -> {
                    // ping, content_block_stop, and events added after this client was written.
                }
            }
        }

        private void text(String text) {
            if (!text.isEmpty()) {
                stopDeadline();
                listener.text(text);
            }
        }

        /** Anthropic's counts are running totals (cache reads and writes are input too): the largest is the answer's. */
        private void usage(JsonNode usage) {
            if (usage.path("input_tokens").isNumber()) {
                promptTokens = Math.max(promptTokens, usage.path("input_tokens").asLong()
                        + usage.path("cache_creation_input_tokens").asLong(0)
                        + usage.path("cache_read_input_tokens").asLong(0));
                cacheReadTokens = Math.max(cacheReadTokens, usage.path("cache_read_input_tokens").asLong(0));
                cacheWriteTokens = Math.max(cacheWriteTokens, usage.path("cache_creation_input_tokens").asLong(0));
            }
            completionTokens = Math.max(completionTokens, usage.path("output_tokens").asLong(0));
        }

        @Override
        protected void ended() {
            fail(ProviderError.protocol(provider, "the stream ended before message_stop"));
        }

        private void complete() {
            if (!finish()) {
                return;
            }
            if (!toolCalls.isEmpty()) {
                List<ToolCall> calls = new ArrayList<>();
                toolCalls.forEach((index, call) -> {
                    String arguments = toolArguments.get(index).toString();
                    calls.add(new ToolCall(call[0] == null ? "toolu_" + index : call[0], call[1],
                            arguments.isBlank() ? "{}" : arguments));
                });
                listener.toolCalls(List.copyOf(calls));
            }
            listener.done(ModelUsage.cached(promptTokens, cacheReadTokens, cacheWriteTokens, completionTokens));
        }

        @Override
        protected void failed(ProviderError error) {
            listener.failed(error);
        }
    }
}
