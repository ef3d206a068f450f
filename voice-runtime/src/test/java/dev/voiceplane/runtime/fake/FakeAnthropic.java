package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A local Anthropic Messages API server, for tests without the internet. What it relies on is Anthropic's public API
 * reference ("Messages", "Streaming messages", "Errors", "Tool use") and the official Python SDK's types.
 *
 * <p>Protocol: base URL {@code http://127.0.0.1:<port>}, {@code POST /v1/messages} with {@code x-api-key} (401
 * {@code authentication_error} otherwise) and {@code anthropic-version} (400 without it). The body is checked as the
 * API checks it, each problem a 400 {@code invalid_request_error}: {@code model} and {@code max_tokens} present; at
 * least one message; roles {@code user} and {@code assistant} only (a {@code system} role is refused: the system
 * prompt is the top-level {@code system}); no empty text block; {@code temperature} within 0..1; each tool with a
 * {@code name} and an {@code input_schema} of type object; each {@code tool_use} answered by a {@code tool_result} of
 * its id in the next turn, a user turn whose results come before its text; {@code tool_use.input} an object. Errors
 * are {@code {"type":"error","error":{"type","message"},"request_id"}}. Every accepted body is recorded.
 *
 * <p>With {@code "stream":true} the answer is {@code text/event-stream} of {@code event:} / {@code data:} pairs, after
 * {@link #ttftMs}: {@code message_start} (the message with {@code usage.input_tokens}), a {@code ping}, then per
 * content block {@code content_block_start}, {@code content_block_delta}s ({@code text_delta} per word, or for a tool
 * call a {@code tool_use} block with {@code input: {}} and {@code input_json_delta} fragments of its arguments),
 * {@code content_block_stop}, then {@code message_delta} ({@code stop_reason} {@code end_turn} or {@code tool_use},
 * {@code usage.output_tokens}) and {@code message_stop}. Tokens are counted as {@link FakeOpenAi} counts them.
 *
 * <p>The reply is chosen, first match wins: the model's own ({@link #forModel}), the next queued ({@link #enqueue}),
 * the script ({@link #script}), by default {@code "You said: <the caller's last words>."}. Failures it can play: an
 * HTTP error in Anthropic's shape (401, 429 {@code rate_limit_error}, 500 {@code api_error}, 529
 * {@code overloaded_error}), an {@code error} event inside the stream, a hang after the response headers, a stream that
 * is not JSON, and a stream that ends after {@code message_start} without {@code message_stop}.
 */
public final class FakeAnthropic implements AutoCloseable {

    /** What the fake answers to one request. */
    public sealed interface Reply {
        static Reply text(String content) {
            return new Text(content);
        }

        /** One tool call; {@code inputJson} is streamed in fragments. */
        static Reply toolUse(String name, String inputJson) {
            return new ToolUses(List.of(new ToolUse("toolu_" + UUID.randomUUID().toString().replace("-", "")
                    .substring(0, 24), name, inputJson)));
        }

        /** An HTTP error with Anthropic's error type for the status. */
        static Reply error(int status) {
            return new HttpError(status);
        }

        static Reply hang() {
            return new Hang();
        }

        static Reply garbage() {
            return new Garbage();
        }

        static Reply endsEarly() {
            return new EndsEarly();
        }

        /** An {@code error} event after {@code message_start} (Anthropic sends one when it is overloaded mid-stream). */
        static Reply streamError(String type, String message) {
            return new StreamError(type, message);
        }
    }

    public record Text(String content) implements Reply {
    }

    public record ToolUse(String id, String name, String inputJson) {
    }

    public record ToolUses(List<ToolUse> calls) implements Reply {
    }

    public record HttpError(int status) implements Reply {
    }

    public record Hang() implements Reply {
    }

    public record Garbage() implements Reply {
    }

    public record EndsEarly() implements Reply {
    }

    public record StreamError(String type, String message) implements Reply {
    }

    /** One accepted request: its body and, once streamed to the end, the usage the fake reported. */
    public static final class Exchange {
        private final JsonObject body;
        private volatile long inputTokens;
        private volatile long outputTokens;
        private volatile boolean completed;

        Exchange(JsonObject body) {
            this.body = body;
        }

        public JsonObject body() {
            return body;
        }

        public long inputTokens() {
            return inputTokens;
        }

        public long outputTokens() {
            return outputTokens;
        }

        /** Whether the stream is written to its {@code message_stop}. */
        public boolean completed() {
            return completed;
        }
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;

    private volatile long ttftMs;
    private volatile Function<JsonObject, Reply> script = FakeAnthropic::echo;
    private final Queue<Reply> queue = new ConcurrentLinkedQueue<>();
    private final Map<String, Reply> perModel = new ConcurrentHashMap<>();
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private volatile String lastApiKey;
    private volatile String lastVersion;

    /** Starts the server on a random loopback port; clients must send {@code x-api-key: <apiKey>}. */
    public FakeAnthropic(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "Anthropic");
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code http://127.0.0.1:<port>}; requests go to {@code baseUrl() + "/v1/messages"}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Wall time before {@code message_start}. */
    public FakeAnthropic ttftMs(long millis) {
        this.ttftMs = millis;
        return this;
    }

    /** The reply as a function of the request body (when no per-model or queued reply applies). */
    public FakeAnthropic script(Function<JsonObject, Reply> script) {
        this.script = script;
        return this;
    }

    /** Replies used once each, in order, before the script. */
    public FakeAnthropic enqueue(Reply... replies) {
        queue.addAll(List.of(replies));
        return this;
    }

    /** Every request for {@code model} gets {@code reply}. */
    public FakeAnthropic forModel(String model, Reply reply) {
        perModel.put(model, reply);
        return this;
    }

    /** The default reply again, and no per-model or queued one. */
    public FakeAnthropic reset() {
        queue.clear();
        perModel.clear();
        script = FakeAnthropic::echo;
        ttftMs = 0;
        return this;
    }

    /** Every accepted request, in order. */
    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    public List<JsonObject> requests() {
        return exchanges.stream().map(Exchange::body).toList();
    }

    public int requestCount() {
        return exchanges.size();
    }

    public JsonObject lastRequest() {
        return exchanges.isEmpty() ? null : exchanges.get(exchanges.size() - 1).body();
    }

    /** The {@code x-api-key} of the last request (valid or not). */
    public String lastApiKey() {
        return lastApiKey;
    }

    /** The {@code anthropic-version} of the last request. */
    public String lastVersion() {
        return lastVersion;
    }

    /** The last text block of the request's last user turn (the caller's last words), or "". */
    public static String lastUserText(JsonObject request) {
        JsonArray messages = request.getJsonArray("messages", new JsonArray());
        if (messages.isEmpty()) {
            return "";
        }
        JsonObject last = messages.getJsonObject(messages.size() - 1);
        if (!"user".equals(last.getString("role"))) {
            return "";
        }
        String text = "";
        for (JsonObject block : blocks(last)) {
            if ("text".equals(block.getString("type"))) {
                text = block.getString("text", "");
            }
        }
        return text;
    }

    /** The content of the last {@code tool_result} of the request's last user turn, or null. */
    public static String lastToolResult(JsonObject request) {
        JsonArray messages = request.getJsonArray("messages", new JsonArray());
        if (messages.isEmpty()) {
            return null;
        }
        String result = null;
        for (JsonObject block : blocks(messages.getJsonObject(messages.size() - 1))) {
            if ("tool_result".equals(block.getString("type"))) {
                Object content = block.getValue("content");
                result = content instanceof String text ? text : String.valueOf(content);
            }
        }
        return result;
    }

    /** A message's content as blocks (a string content is one text block). */
    public static List<JsonObject> blocks(JsonObject message) {
        Object content = message.getValue("content");
        List<JsonObject> blocks = new ArrayList<>();
        if (content instanceof String text) {
            blocks.add(new JsonObject().put("type", "text").put("text", text));
        } else if (content instanceof JsonArray array) {
            for (Object block : array) {
                if (block instanceof JsonObject object) {
                    blocks.add(object);
                }
            }
        }
        return blocks;
    }

    private static Reply echo(JsonObject request) {
        return Reply.text("You said: " + lastUserText(request) + ".");
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Anthropic");
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            lastApiKey = request.getHeader("x-api-key");
            lastVersion = request.getHeader("anthropic-version");
            if (!"/v1/messages".equals(request.path())) {
                error(response, 404, "not_found_error", "Not Found");
                return;
            }
            if (!apiKey.equals(lastApiKey)) {
                error(response, 401, "authentication_error", "invalid x-api-key");
                return;
            }
            if (lastVersion == null) {
                error(response, 400, "invalid_request_error", "anthropic-version: header is required");
                return;
            }
            JsonObject json;
            try {
                json = body.toJsonObject();
            } catch (RuntimeException e) {
                error(response, 400, "invalid_request_error", "There was an error parsing the body of your request");
                return;
            }
            String problem = problem(json);
            if (problem != null) {
                error(response, 400, "invalid_request_error", problem);
                return;
            }
            Exchange exchange = new Exchange(json);
            exchanges.add(exchange);
            Reply reply = perModel.get(json.getString("model", ""));
            if (reply == null) {
                reply = queue.poll();
            }
            if (reply == null) {
                reply = script.apply(json);
            }
            answer(exchange, reply, response);
        });
    }

    /** What the API would refuse in the body, or null. */
    private static String problem(JsonObject body) {
        if (!(body.getValue("model") instanceof String)) {
            return "model: Field required";
        }
        if (!(body.getValue("max_tokens") instanceof Number)) {
            return "max_tokens: Field required";
        }
        if (body.getValue("temperature") instanceof Number t && (t.doubleValue() < 0 || t.doubleValue() > 1)) {
            return "temperature: Input should be less than or equal to 1";
        }
        if (body.containsKey("system") && !(body.getValue("system") instanceof String)
                && !(body.getValue("system") instanceof JsonArray)) {
            return "system: Input should be a valid string";
        }
        JsonArray messages = body.getJsonArray("messages", new JsonArray());
        if (messages.isEmpty()) {
            return "messages: at least one message is required";
        }
        Set<String> unanswered = new HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonObject message = messages.getJsonObject(i);
            String role = message.getString("role");
            if (!"user".equals(role) && !"assistant".equals(role)) {
                return "messages." + i + ".role: Unexpected role \"" + role + "\". The Messages API accepts a top-level"
                        + " `system` parameter, not \"system\" as an input message role.";
            }
            List<JsonObject> blocks = blocks(message);
            if (blocks.isEmpty()) {
                return "messages." + i + ": all messages must have non-empty content except for the optional final"
                        + " assistant message";
            }
            if (!unanswered.isEmpty()) {
                if (!"user".equals(role)) {
                    return "messages." + i + ": `tool_use` ids were found without `tool_result` blocks immediately"
                            + " after: " + unanswered;
                }
                boolean textSeen = false;
                for (JsonObject block : blocks) {
                    if ("tool_result".equals(block.getString("type"))) {
                        if (textSeen) {
                            return "messages." + i + ": tool_result blocks must come before any other content";
                        }
                        unanswered.remove(block.getString("tool_use_id"));
                    } else {
                        textSeen = true;
                    }
                }
                if (!unanswered.isEmpty()) {
                    return "messages." + i + ": `tool_use` ids were found without `tool_result` blocks immediately"
                            + " after: " + unanswered;
                }
            }
            for (JsonObject block : blocks) {
                String type = block.getString("type");
                if ("text".equals(type) && block.getString("text", "").isEmpty()) {
                    return "messages: text content blocks must be non-empty";
                }
                if ("tool_use".equals(type)) {
                    if (!"assistant".equals(role)) {
                        return "messages." + i + ": tool_use blocks may only be in assistant messages";
                    }
                    if (!(block.getValue("input") instanceof JsonObject)) {
                        return "messages." + i + ".content.tool_use.input: Input should be a valid dictionary";
                    }
                    if (!block.getString("id", "").matches("[a-zA-Z0-9_-]+")) {
                        return "messages." + i + ".content.tool_use.id: String should match pattern"
                                + " '^[a-zA-Z0-9_-]+$'";
                    }
                    unanswered.add(block.getString("id"));
                }
                if ("tool_result".equals(type) && !"user".equals(role)) {
                    return "messages." + i + ": tool_result blocks may only be in user messages";
                }
            }
        }
        for (Object item : body.getJsonArray("tools", new JsonArray())) {
            JsonObject tool = (JsonObject) item;
            if (tool.getString("name") == null || !(tool.getValue("input_schema") instanceof JsonObject schema)
                    || !"object".equals(schema.getString("type"))) {
                return "tools: each tool needs a name and an input_schema of type object";
            }
        }
        return null;
    }

    private void answer(Exchange exchange, Reply reply, HttpServerResponse response) {
        switch (reply) {
            case HttpError e -> error(response, e.status(), switch (e.status()) {
                case 401 -> "authentication_error";
                case 403 -> "permission_error";
                case 404 -> "not_found_error";
                case 429 -> "rate_limit_error";
                case 529 -> "overloaded_error";
                default -> e.status() >= 500 ? "api_error" : "invalid_request_error";
            }, switch (e.status()) {
                case 429 -> "Number of request tokens has exceeded your per-minute rate limit";
                case 529 -> "Overloaded";
                default -> e.status() >= 500 ? "Internal server error" : "Invalid request";
            });
            case Hang h -> response.setChunked(true).putHeader("content-type", "text/event-stream").writeHead();
            case Garbage g -> response.putHeader("content-type", "text/event-stream")
                    .end("event: message_start\ndata: {\"type\": not json at all\n\n");
            default -> stream(exchange, reply, response);
        }
    }

    private void stream(Exchange exchange, Reply reply, HttpServerResponse response) {
        JsonObject request = exchange.body();
        String model = request.getString("model");
        long input = inputTokens(request);
        List<String> events = new ArrayList<>();
        events.add(event("message_start", new JsonObject().put("type", "message_start").put("message",
                new JsonObject().put("id", "msg_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24))
                        .put("type", "message").put("role", "assistant").put("content", new JsonArray())
                        .put("model", model).putNull("stop_reason").putNull("stop_sequence")
                        .put("usage", new JsonObject().put("input_tokens", input).put("output_tokens", 1)))));
        events.add(event("ping", new JsonObject().put("type", "ping")));
        long output = 0;
        String stop;
        boolean complete = true;
        switch (reply) {
            case Text t -> {
                events.add(blockStart(0, new JsonObject().put("type", "text").put("text", "")));
                for (String token : FakeOpenAi.tokens(t.content())) {
                    events.add(delta(0, new JsonObject().put("type", "text_delta").put("text", token)));
                    output++;
                }
                events.add(event("content_block_stop", new JsonObject().put("type", "content_block_stop")
                        .put("index", 0)));
                stop = "end_turn";
            }
            case ToolUses c -> {
                for (int i = 0; i < c.calls().size(); i++) {
                    ToolUse call = c.calls().get(i);
                    events.add(blockStart(i, new JsonObject().put("type", "tool_use").put("id", call.id())
                            .put("name", call.name()).put("input", new JsonObject())));
                    events.add(delta(i, new JsonObject().put("type", "input_json_delta").put("partial_json", "")));
                    String arguments = call.inputJson();
                    for (int from = 0; from < arguments.length(); from += 8) {
                        events.add(delta(i, new JsonObject().put("type", "input_json_delta").put("partial_json",
                                arguments.substring(from, Math.min(arguments.length(), from + 8)))));
                        output++;
                    }
                    events.add(event("content_block_stop", new JsonObject().put("type", "content_block_stop")
                            .put("index", i)));
                }
                stop = "tool_use";
            }
            case EndsEarly e -> {
                events.add(blockStart(0, new JsonObject().put("type", "text").put("text", "")));
                stop = null;
                complete = false;
            }
            case StreamError e -> {
                events.add(event("error", new JsonObject().put("type", "error").put("error",
                        new JsonObject().put("type", e.type()).put("message", e.message()))));
                stop = null;
                complete = false;
            }
            default -> throw new IllegalStateException("not a streamed reply: " + reply);
        }
        if (stop != null) {
            events.add(event("message_delta", new JsonObject().put("type", "message_delta")
                    .put("delta", new JsonObject().put("stop_reason", stop).putNull("stop_sequence"))
                    .put("usage", new JsonObject().put("output_tokens", output))));
            events.add(event("message_stop", new JsonObject().put("type", "message_stop")));
        }
        response.setChunked(true).putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-cache")
                .putHeader("request-id", "req_" + UUID.randomUUID().toString().replace("-", "")).writeHead();
        long outputTokens = output;
        boolean completes = complete;
        vertx.setTimer(Math.max(1, ttftMs), first -> {
            if (response.closed()) {
                return;
            }
            if (completes) {
                // Recorded first: the client may have read the whole answer before end() returns.
                exchange.inputTokens = input;
                exchange.outputTokens = outputTokens;
                exchange.completed = true;
            }
            response.end(String.join("", events));
        });
    }

    private static String blockStart(int index, JsonObject block) {
        return event("content_block_start", new JsonObject().put("type", "content_block_start").put("index", index)
                .put("content_block", block));
    }

    private static String delta(int index, JsonObject delta) {
        return event("content_block_delta", new JsonObject().put("type", "content_block_delta").put("index", index)
                .put("delta", delta));
    }

    private static String event(String name, JsonObject data) {
        return "event: " + name + "\ndata: " + data.encode() + "\n\n";
    }

    /** The words of the system prompt and of every text and result, and 4 per message. */
    private static long inputTokens(JsonObject request) {
        long count = 0;
        if (request.getValue("system") instanceof String system) {
            count += FakeOpenAi.tokens(system).size();
        }
        for (Object item : request.getJsonArray("messages", new JsonArray())) {
            count += 4;
            for (JsonObject block : blocks((JsonObject) item)) {
                if (block.getValue("text") instanceof String text) {
                    count += FakeOpenAi.tokens(text).size();
                } else if (block.getValue("content") instanceof String content) {
                    count += FakeOpenAi.tokens(content).size();
                }
            }
        }
        return count;
    }

    private static void error(HttpServerResponse response, int status, String type, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("type", "error").put("error", new JsonObject().put("type", type)
                        .put("message", message)).put("request_id", "req_" + UUID.randomUUID().toString()
                        .replace("-", "")).encode());
    }
}
