package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A local OpenAI-compatible chat completions server, for tests without the internet.
 *
 * <p>Protocol: base URL {@code http://127.0.0.1:<port>/v1} (as configured for OpenAI or a self-hosted
 * OpenAI-compatible server), {@code POST /v1/chat/completions} with {@code Authorization: Bearer <key>} (401 with
 * OpenAI's error body otherwise) and the usual JSON body ({@code model}, {@code messages}, {@code temperature},
 * {@code max_tokens}, {@code tools}, {@code stream}, {@code stream_options}). Every body is recorded.
 *
 * <p>With {@code "stream":true} the answer is {@code text/event-stream}: after {@link #ttftMs}, a first chunk
 * {@code {"id","object":"chat.completion.chunk","created","model","choices":[{"index":0,"delta":{"role":"assistant",
 * "content":""},"finish_reason":null}]}}, then one chunk per token (a word with its following space) at
 * {@link #tokensPerSecond} (0 = all at once), then a chunk with {@code "finish_reason":"stop"}, then, when
 * {@code stream_options.include_usage}, a chunk with {@code "choices":[]} and {@code usage} ({@link #promptTokens},
 * of them {@link #cachedTokens} in {@code prompt_tokens_details.cached_tokens}), then
 * {@code data: [DONE]}. A scripted tool call streams {@code delta.tool_calls[{index,id,type:"function",
 * function:{name,arguments:""}}]}, then argument fragments, then {@code "finish_reason":"tool_calls"}. Without
 * {@code stream}, a {@code chat.completion} object.
 *
 * <p>Azure OpenAI's form of the same API is accepted too once {@link #azureKey} is set: {@code POST
 * /openai/deployments/<deployment>/chat/completions?api-version=<version>} with the key in {@code api-key} (Azure's
 * 401 "Access denied due to invalid subscription key or wrong API endpoint" otherwise; its 404 "Resource not found"
 * without an {@code api-version}); the deployment stands for the model in {@link #forModel}, and the last deployment,
 * version and key are recorded.
 *
 * <p>The reply is chosen, first match wins: the model's own reply ({@link #forModel}, e.g. to make model A fail and
 * fallback model B answer), the next queued reply ({@link #enqueue}), the script function ({@link #script}), and by
 * default {@code "You said: <last user message>."}. A {@link Reply} is text, tool calls, or a failure: an HTTP error
 * with OpenAI's error body, garbage SSE, or a hang after the response headers.
 */
public final class FakeOpenAi implements AutoCloseable {

    /** What the fake answers to one request. */
    public sealed interface Reply {
        static Reply text(String content) {
            return new Text(content);
        }

        /** One tool call; {@code argumentsJson} is streamed in fragments. */
        static Reply toolCall(String name, String argumentsJson) {
            return new ToolCalls(List.of(new ToolCall("call_" + UUID.randomUUID().toString().replace("-", ""), name,
                    argumentsJson)));
        }

        static Reply error(int status, String message) {
            return new HttpError(status, message);
        }

        static Reply garbage() {
            return new Garbage();
        }

        static Reply hang() {
            return new Hang();
        }
    }

    public record Text(String content) implements Reply {
    }

    public record ToolCall(String id, String name, String argumentsJson) {
    }

    public record ToolCalls(List<ToolCall> calls) implements Reply {
    }

    /** An HTTP error (e.g. 500, 429) with {@code {"error":{"message","type","param","code"}}}. */
    public record HttpError(int status, String message) implements Reply {
    }

    /** 200 {@code text/event-stream} with lines that are not JSON, then the end of the response. */
    public record Garbage() implements Reply {
    }

    /** The response headers (streaming) or nothing at all (non-streaming), then silence until the client gives up. */
    public record Hang() implements Reply {
    }

    private static final java.util.regex.Pattern AZURE_PATH = java.util.regex.Pattern.compile(
            "/openai/deployments/([^/]+)/chat/completions");

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;

    private volatile long ttftMs;
    private volatile double tokensPerSecond;
    private volatile Function<JsonObject, Reply> script = FakeOpenAi::echo;
    private final Queue<Reply> queue = new ConcurrentLinkedQueue<>();
    private final Map<String, Reply> perModel = new ConcurrentHashMap<>();
    private final List<JsonObject> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger disconnects = new AtomicInteger();
    private volatile String lastAuthorization;
    private volatile String azureKey;
    private volatile String lastDeployment;
    private volatile String lastApiVersion;
    private volatile String lastApiKeyHeader;

    /** Starts the server on a random loopback port; clients must send {@code Authorization: Bearer <apiKey>}. */
    public FakeOpenAi(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "OpenAI");
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code http://127.0.0.1:<port>/v1}; requests go to {@code baseUrl() + "/chat/completions"}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /** Wall time before the first chunk (time to first token). */
    public FakeOpenAi ttftMs(long millis) {
        this.ttftMs = millis;
        return this;
    }

    /** Pace of the content deltas after the first; 0 (default) sends them all at once. */
    public FakeOpenAi tokensPerSecond(double rate) {
        this.tokensPerSecond = rate;
        return this;
    }

    /** The reply as a function of the request body (used when no per-model or queued reply applies). */
    public FakeOpenAi script(Function<JsonObject, Reply> script) {
        this.script = script;
        return this;
    }

    /** Replies used once each, in order, before the script. */
    public FakeOpenAi enqueue(Reply... replies) {
        queue.addAll(List.of(replies));
        return this;
    }

    /** Every request for {@code model} gets {@code reply} (e.g. an error, to exercise fallback models). */
    public FakeOpenAi forModel(String model, Reply reply) {
        perModel.put(model, reply);
        return this;
    }

    /** Every request body received (with a valid key), in order. */
    public List<JsonObject> requests() {
        return List.copyOf(requests);
    }

    public int requestCount() {
        return requests.size();
    }

    /** The last request body, or null. */
    public JsonObject lastRequest() {
        return requests.isEmpty() ? null : requests.get(requests.size() - 1);
    }

    /** The {@code Authorization} header of the last request (valid or not). */
    public String lastAuthorization() {
        return lastAuthorization;
    }

    /** Accepts Azure OpenAI's deployment path with {@code api-key: <key>}. */
    public FakeOpenAi azureKey(String key) {
        this.azureKey = key;
        return this;
    }

    /** The deployment of the last request on Azure's path. */
    public String lastDeployment() {
        return lastDeployment;
    }

    /** The {@code api-version} of the last request on Azure's path. */
    public String lastApiVersion() {
        return lastApiVersion;
    }

    /** The {@code api-key} header of the last request on Azure's path (valid or not). */
    public String lastApiKeyHeader() {
        return lastApiKeyHeader;
    }

    /** Streaming responses the client closed before their end (e.g. the runtime cancelled on barge-in). */
    public int disconnects() {
        return disconnects.get();
    }

    /** The content of the last {@code user} message of a request body, or "". */
    public static String lastUserMessage(JsonObject request) {
        JsonArray messages = request.getJsonArray("messages", new JsonArray());
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonObject message = messages.getJsonObject(i);
            if ("user".equals(message.getString("role"))) {
                Object content = message.getValue("content");
                return content instanceof String text ? text : String.valueOf(content);
            }
        }
        return "";
    }

    private static Reply echo(JsonObject request) {
        return Reply.text("You said: " + lastUserMessage(request) + ".");
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "OpenAI");
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            lastAuthorization = request.getHeader("Authorization");
            java.util.regex.Matcher azure = AZURE_PATH.matcher(request.path());
            String deployment = null;
            if (azureKey != null && azure.matches()) {
                deployment = azure.group(1);
                lastDeployment = deployment;
                lastApiVersion = request.getParam("api-version");
                lastApiKeyHeader = request.getHeader("api-key");
                if (lastApiVersion == null) {
                    azureError(response, 404, "404", "Resource not found");
                    return;
                }
                if (!azureKey.equals(lastApiKeyHeader)) {
                    azureError(response, 401, "401", "Access denied due to invalid subscription key or wrong API"
                            + " endpoint. Make sure to provide a valid key for an active subscription and use a correct"
                            + " regional API endpoint for your resource.");
                    return;
                }
            } else if (!"/v1/chat/completions".equals(request.path())) {
                error(response, 404, "Unknown path " + request.path(), "invalid_request_error", "unknown_url");
                return;
            } else if (!("Bearer " + apiKey).equals(lastAuthorization)) {
                error(response, 401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
                return;
            }
            JsonObject json;
            try {
                json = body.toJsonObject();
            } catch (RuntimeException e) {
                error(response, 400, "We could not parse the JSON body of your request.", "invalid_request_error",
                        null);
                return;
            }
            requests.add(json);
            Reply reply = perModel.get(deployment != null ? deployment : json.getString("model", ""));
            if (reply == null) {
                reply = queue.poll();
            }
            if (reply == null) {
                reply = script.apply(json);
            }
            answer(json, reply, response);
        });
    }

    private void answer(JsonObject request, Reply reply, HttpServerResponse response) {
        boolean stream = request.getBoolean("stream", false);
        switch (reply) {
            case HttpError e -> error(response, e.status(), e.message(),
                    e.status() == 429 ? "rate_limit_exceeded" : "server_error", null);
            case Hang h -> {
                if (stream) {
                    response.setChunked(true).putHeader("content-type", "text/event-stream").writeHead();
                }
            }
            case Garbage g -> response.putHeader("content-type", "text/event-stream")
                    .end("data: {\"id\": not json at all\n\ndata: <html>oops</html>\n\n");
            case Text t when !stream -> complete(request, response, new JsonObject().put("role", "assistant")
                    .put("content", t.content()), "stop", tokens(t.content()).size());
            case ToolCalls c when !stream -> {
                JsonArray calls = new JsonArray();
                for (ToolCall call : c.calls()) {
                    calls.add(new JsonObject().put("id", call.id()).put("type", "function").put("function",
                            new JsonObject().put("name", call.name()).put("arguments", call.argumentsJson())));
                }
                complete(request, response, new JsonObject().put("role", "assistant").putNull("content")
                        .put("tool_calls", calls), "tool_calls", calls.encode().length() / 4);
            }
            default -> stream(request, reply, response);
        }
    }

    private void complete(JsonObject request, HttpServerResponse response, JsonObject message, String finish,
            int completionTokens) {
        response.putHeader("content-type", "application/json").end(new JsonObject()
                .put("id", "chatcmpl-" + UUID.randomUUID()).put("object", "chat.completion")
                .put("created", System.currentTimeMillis() / 1000).put("model", request.getString("model"))
                .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
                        .put("finish_reason", finish)))
                .put("usage", usage(request, completionTokens)).encode());
    }

    /** Streams a {@link Text} or {@link ToolCalls} reply as server-sent events. */
    private void stream(JsonObject request, Reply reply, HttpServerResponse response) {
        String id = "chatcmpl-" + UUID.randomUUID();
        long created = System.currentTimeMillis() / 1000;
        String model = request.getString("model");
        boolean includeUsage = request.getJsonObject("stream_options", new JsonObject())
                .getBoolean("include_usage", false);
        List<JsonObject> deltas = new ArrayList<>();
        String finish;
        int completionTokens;
        if (reply instanceof Text t) {
            List<String> tokens = tokens(t.content());
            tokens.forEach(token -> deltas.add(new JsonObject().put("content", token)));
            finish = "stop";
            completionTokens = tokens.size();
        } else {
            List<ToolCall> calls = ((ToolCalls) reply).calls();
            for (int i = 0; i < calls.size(); i++) {
                ToolCall call = calls.get(i);
                deltas.add(toolDelta(new JsonObject().put("index", i).put("id", call.id()).put("type", "function")
                        .put("function", new JsonObject().put("name", call.name()).put("arguments", ""))));
                String arguments = call.argumentsJson();
                for (int from = 0; from < arguments.length(); from += 8) {
                    deltas.add(toolDelta(new JsonObject().put("index", i).put("function", new JsonObject()
                            .put("arguments", arguments.substring(from, Math.min(arguments.length(), from + 8))))));
                }
            }
            finish = "tool_calls";
            completionTokens = deltas.size();
        }
        response.setChunked(true).putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-cache")
                .writeHead();
        Runnable[] cancel = { () -> { } };
        response.closeHandler(v -> {
            if (!response.ended()) {
                disconnects.incrementAndGet();
                cancel[0].run();
            }
        });
        List<String> events = new ArrayList<>();
        events.add(chunk(id, created, model, new JsonObject().put("role", "assistant").put("content", ""), null));
        deltas.forEach(delta -> events.add(chunk(id, created, model, delta, null)));
        events.add(chunk(id, created, model, new JsonObject(), finish));
        String tail = (includeUsage ? "data: " + new JsonObject().put("id", id).put("object", "chat.completion.chunk")
                .put("created", created).put("model", model).put("choices", new JsonArray())
                .put("usage", usage(request, completionTokens)).encode() + "\n\n" : "") + "data: [DONE]\n\n";
        double rate = tokensPerSecond;
        vertx.setTimer(Math.max(1, ttftMs), first -> {
            if (response.closed()) {
                return;
            }
            if (rate <= 0) {
                response.write(String.join("", events));
                response.end(tail);
                return;
            }
            response.write(events.get(0));
            int[] next = { 1 };
            long timer = vertx.setPeriodic(Math.max(1, Math.round(1000 / rate)), tick -> {
                if (response.closed()) {
                    vertx.cancelTimer(tick);
                    return;
                }
                response.write(events.get(next[0]++));
                if (next[0] == events.size()) {
                    vertx.cancelTimer(tick);
                    response.end(tail);
                }
            });
            cancel[0] = () -> vertx.cancelTimer(timer);
        });
    }

    private static String chunk(String id, long created, String model, JsonObject delta, String finish) {
        JsonObject choice = new JsonObject().put("index", 0).put("delta", delta);
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        return "data: " + new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", created)
                .put("model", model).put("choices", new JsonArray().add(choice)).encode() + "\n\n";
    }

    private static JsonObject toolDelta(JsonObject call) {
        return new JsonObject().put("tool_calls", new JsonArray().add(call));
    }

    /** Tokens as the fake counts them: each word with its following whitespace. */
    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\S+\\s*|\\s+").matcher(text);
        while (m.find()) {
            tokens.add(m.group());
        }
        return tokens;
    }

    /** The prompt tokens the fake reports for a request: each message's words, plus 4. */
    public static int promptTokens(JsonObject request) {
        int count = 0;
        for (Object message : request.getJsonArray("messages", new JsonArray())) {
            if (message instanceof JsonObject m && m.getValue("content") instanceof String content) {
                count += tokens(content).size() + 4;
            }
        }
        return count;
    }

    /**
     * The cached prompt tokens the fake reports for a request: those of its leading system messages, the prefix a
     * provider's prompt cache holds from one request of a conversation to the next.
     */
    public static int cachedTokens(JsonObject request) {
        int count = 0;
        for (Object message : request.getJsonArray("messages", new JsonArray())) {
            if (!(message instanceof JsonObject m) || !"system".equals(m.getString("role"))
                    || !(m.getValue("content") instanceof String content)) {
                break;
            }
            count += tokens(content).size() + 4;
        }
        return count;
    }

    private static JsonObject usage(JsonObject request, int completion) {
        int prompt = promptTokens(request);
        return new JsonObject().put("prompt_tokens", prompt).put("completion_tokens", completion)
                .put("total_tokens", prompt + completion)
                .put("prompt_tokens_details", new JsonObject().put("cached_tokens", cachedTokens(request)));
    }

    private static void azureError(HttpServerResponse response, int status, String code, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", new JsonObject().put("code", code).put("message", message)).encode());
    }

    private static void error(HttpServerResponse response, int status, String message, String type, String code) {
        JsonObject error = new JsonObject().put("message", message).put("type", type).putNull("param");
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }
}
