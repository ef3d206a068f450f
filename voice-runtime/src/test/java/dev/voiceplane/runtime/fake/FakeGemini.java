package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local Gemini API server ({@code generativelanguage.googleapis.com}), for tests without the internet. What it
 * relies on is Google's public Gemini API reference ("Generating content", "Function calling", "Thought signatures",
 * "Troubleshooting" error codes) and the google-genai SDKs' types.
 *
 * <p>Protocol: base URL {@code http://127.0.0.1:<port>}, {@code POST /v1beta/models/<model>:streamGenerateContent?alt=sse}
 * with the key in {@code x-goog-api-key} (or {@code ?key=}). No key: 403 {@code PERMISSION_DENIED}; a key it does not
 * know: 400 {@code INVALID_ARGUMENT} "API key not valid" with the {@code API_KEY_INVALID} reason, as Google answers.
 * Errors are {@code {"error":{"code","message","status"}}}. The body is checked as the API checks it, each problem a
 * 400 {@code INVALID_ARGUMENT}: at least one content; roles {@code user} and {@code model} only; parts not empty; each
 * model turn's function calls answered by as many function responses in the next turn; every function call part that
 * the fake signed with a {@code thoughtSignature} sent back with that signature (Gemini 3 refuses a history without
 * it); function parameters in the API's Schema only (no {@code additionalProperties}, {@code $schema}, ...: "Invalid
 * JSON payload received. Unknown name"), and no object with empty {@code properties}. Every accepted body is recorded,
 * with the model of its URL.
 *
 * <p>The answer is {@code text/event-stream}, each event {@code data: <GenerateContentResponse>} and a blank line
 * (CRLF), after {@link #ttftMs}: one chunk per word ({@code candidates[0].content} of role {@code model} with a text
 * part, {@code usageMetadata.promptTokenCount}), the last with {@code finishReason: STOP} and the full
 * {@code usageMetadata} ({@code candidatesTokenCount}, {@code totalTokenCount}); a function call is one chunk with
 * {@code functionCall} parts ({@code name}, {@code args}; no {@code id}, as the API gives none) signed with a
 * {@code thoughtSignature}. Tokens are counted as {@link FakeOpenAi} counts them.
 *
 * <p>The reply is chosen like {@link FakeAnthropic}'s. Failures it can play: an HTTP error in Google's shape (400,
 * 429 {@code RESOURCE_EXHAUSTED}, 500 {@code INTERNAL}, 503 {@code UNAVAILABLE}), an error inside the stream, a hang
 * after the response headers, a stream that is not JSON, a stream that ends without a {@code finishReason}, and an
 * answer blocked for safety.
 */
public final class FakeGemini implements AutoCloseable {

    private static final Pattern PATH = Pattern.compile("/v1beta/models/([^/:]+):streamGenerateContent");
    private static final Set<String> SCHEMA_FIELDS = Set.of("type", "format", "title", "description", "nullable",
            "enum", "maxItems", "minItems", "properties", "required", "minProperties", "maxProperties", "minLength",
            "maxLength", "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum");

    /** What the fake answers to one request. */
    public sealed interface Reply {
        static Reply text(String content) {
            return new Text(content);
        }

        static Reply functionCall(String name, JsonObject args) {
            return new FunctionCalls(List.of(new FunctionCall(name, args)));
        }

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

        static Reply streamError(int code, String status, String message) {
            return new StreamError(code, status, message);
        }

        static Reply blocked() {
            return new Blocked();
        }
    }

    public record Text(String content) implements Reply {
    }

    public record FunctionCall(String name, JsonObject args) {
    }

    public record FunctionCalls(List<FunctionCall> calls) implements Reply {
    }

    public record HttpError(int status) implements Reply {
    }

    public record Hang() implements Reply {
    }

    public record Garbage() implements Reply {
    }

    /** A chunk with only {@code usageMetadata}, then the end of the answer without a {@code finishReason}. */
    public record EndsEarly() implements Reply {
    }

    public record StreamError(int code, String status, String message) implements Reply {
    }

    /** A candidate that finished with {@code SAFETY} and no text. */
    public record Blocked() implements Reply {
    }

    /** One accepted request: its model, its body and, once streamed to the end, the usage the fake reported. */
    public static final class Exchange {
        private final String model;
        private final JsonObject body;
        private volatile long promptTokens;
        private volatile long candidatesTokens;
        private volatile boolean completed;

        Exchange(String model, JsonObject body) {
            this.model = model;
            this.body = body;
        }

        /** The model of the request's URL. */
        public String model() {
            return model;
        }

        public JsonObject body() {
            return body;
        }

        public long promptTokens() {
            return promptTokens;
        }

        public long candidatesTokens() {
            return candidatesTokens;
        }

        public boolean completed() {
            return completed;
        }
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private final FakeGeminiLive live;

    private volatile long ttftMs;
    private volatile Function<JsonObject, Reply> script = FakeGemini::echo;
    private final Queue<Reply> queue = new ConcurrentLinkedQueue<>();
    private final Map<String, Reply> perModel = new ConcurrentHashMap<>();
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    /** The signature given to each function call the fake made, by the call's name and arguments. */
    private final Map<String, String> signatures = new ConcurrentHashMap<>();
    private volatile String lastApiKey;

    /** Starts the server on a random loopback port; clients must send {@code x-goog-api-key: <apiKey>}. */
    public FakeGemini(String apiKey) {
        this.apiKey = apiKey;
        this.live = new FakeGeminiLive(vertx, apiKey);
        this.server = LoopbackServer.start(vertx, this::handle, "Gemini");
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code http://127.0.0.1:<port>}, the API's address before {@code /v1beta}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    public FakeGemini ttftMs(long millis) {
        this.ttftMs = millis;
        return this;
    }

    public FakeGemini script(Function<JsonObject, Reply> script) {
        this.script = script;
        return this;
    }

    public FakeGemini enqueue(Reply... replies) {
        queue.addAll(List.of(replies));
        return this;
    }

    /** Every request for {@code model} (as its URL names it) gets {@code reply}. */
    public FakeGemini forModel(String model, Reply reply) {
        perModel.put(model, reply);
        return this;
    }

    /** The default reply again, and no per-model or queued one. */
    public FakeGemini reset() {
        queue.clear();
        perModel.clear();
        script = FakeGemini::echo;
        ttftMs = 0;
        return this;
    }

    public List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    public int requestCount() {
        return exchanges.size();
    }

    /** The key of the last request (valid or not). */
    public String lastApiKey() {
        return lastApiKey;
    }

    /** The text of the last text part of the request's last user content (the caller's last words), or "". */
    public static String lastUserText(JsonObject request) {
        JsonObject last = last(request);
        if (last == null || !"user".equals(last.getString("role"))) {
            return "";
        }
        String text = "";
        for (Object part : last.getJsonArray("parts", new JsonArray())) {
            if (part instanceof JsonObject object && object.getValue("text") instanceof String value) {
                text = value;
            }
        }
        return text;
    }

    /** The {@code response} of the last {@code functionResponse} part of the last content, or null. */
    public static JsonObject lastFunctionResponse(JsonObject request) {
        JsonObject last = last(request);
        JsonObject response = null;
        for (Object part : last == null ? new JsonArray() : last.getJsonArray("parts", new JsonArray())) {
            if (part instanceof JsonObject object && object.getValue("functionResponse") instanceof JsonObject found) {
                response = found;
            }
        }
        return response;
    }

    private static JsonObject last(JsonObject request) {
        JsonArray contents = request.getJsonArray("contents", new JsonArray());
        return contents.isEmpty() ? null : contents.getJsonObject(contents.size() - 1);
    }

    private static Reply echo(JsonObject request) {
        return Reply.text("You said: " + lastUserText(request) + ".");
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Gemini");
    }

    /** The Live API ({@link FakeGeminiLive#PATH}) on the same server, as Google serves both on one host. */
    public FakeGeminiLive live() {
        return live;
    }

    private void handle(HttpServerRequest request) {
        if (FakeGeminiLive.PATH.equals(request.path())) {
            live.handle(request);
            return;
        }
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            String key = request.getHeader("x-goog-api-key");
            lastApiKey = key != null ? key : request.getParam("key");
            Matcher path = PATH.matcher(request.path());
            if (!path.matches()) {
                error(response, 404, "NOT_FOUND", "Method not found.", null);
                return;
            }
            if (lastApiKey == null) {
                error(response, 403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without"
                        + " established identity). Please use API Key or other form of API consumer identity to call"
                        + " this API.", null);
                return;
            }
            if (!apiKey.equals(lastApiKey)) {
                error(response, 400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.",
                        "API_KEY_INVALID");
                return;
            }
            JsonObject json;
            try {
                json = body.toJsonObject();
            } catch (RuntimeException e) {
                error(response, 400, "INVALID_ARGUMENT", "Invalid JSON payload received.", null);
                return;
            }
            String problem = problem(json);
            if (problem != null) {
                error(response, 400, "INVALID_ARGUMENT", problem, null);
                return;
            }
            String model = path.group(1);
            Exchange exchange = new Exchange(model, json);
            exchanges.add(exchange);
            Reply reply = perModel.get(model);
            if (reply == null) {
                reply = queue.poll();
            }
            if (reply == null) {
                reply = script.apply(json);
            }
            answer(exchange, reply, response, "sse".equals(request.getParam("alt")));
        });
    }

    /** What the API would refuse in the body, or null. */
    private String problem(JsonObject body) {
        JsonArray contents = body.getJsonArray("contents", new JsonArray());
        if (contents.isEmpty()) {
            return "* GenerateContentRequest.contents: contents is not specified";
        }
        int calls = 0;
        for (int i = 0; i < contents.size(); i++) {
            JsonObject content = contents.getJsonObject(i);
            String role = content.getString("role");
            if (!"user".equals(role) && !"model".equals(role)) {
                return "Please use a valid role: user, model.";
            }
            JsonArray parts = content.getJsonArray("parts", new JsonArray());
            if (parts.isEmpty()) {
                return "* GenerateContentRequest.contents[" + i + "].parts: contents.parts must not be empty.";
            }
            int responses = 0;
            int thisTurnsCalls = 0;
            for (int p = 0; p < parts.size(); p++) {
                JsonObject part = parts.getJsonObject(p);
                if (part.getValue("functionCall") instanceof JsonObject call) {
                    thisTurnsCalls++;
                    String signed = signatures.get(signatureKey(call));
                    if (signed != null && !signed.equals(part.getString("thoughtSignature"))) {
                        return "Function call is missing a thought_signature in functionCall parts. This is required"
                                + " for tools to work correctly, and missing thought_signature may lead to degraded"
                                + " model performance. Additional data, function call `default_api:"
                                + call.getString("name") + "` , position " + (p + 1) + ".";
                    }
                }
                if (part.getValue("functionResponse") instanceof JsonObject) {
                    responses++;
                }
                if (part.getValue("text") instanceof String text && text.isEmpty()) {
                    return "* GenerateContentRequest.contents[" + i + "].parts[" + p + "].data: required oneof field"
                            + " 'data' must have one initialized field";
                }
            }
            if (calls > 0 && responses != calls) {
                return "Please ensure that the number of function response parts is equal to the number of function"
                        + " call parts of the function call turn.";
            }
            calls = thisTurnsCalls;
        }
        JsonArray tools = body.getJsonArray("tools", new JsonArray());
        for (int t = 0; t < tools.size(); t++) {
            JsonArray declarations = tools.getJsonObject(t).getJsonArray("functionDeclarations", new JsonArray());
            for (int d = 0; d < declarations.size(); d++) {
                Object parameters = declarations.getJsonObject(d).getValue("parameters");
                if (parameters instanceof JsonObject schema) {
                    String problem = schemaProblem(schema, "tools[" + t + "].function_declarations[" + d
                            + "].parameters");
                    if (problem != null) {
                        return problem;
                    }
                }
            }
        }
        return null;
    }

    private static String schemaProblem(JsonObject schema, String at) {
        for (String field : schema.fieldNames()) {
            if (!SCHEMA_FIELDS.contains(field)) {
                return "Invalid JSON payload received. Unknown name \"" + field + "\" at '" + at
                        + "': Cannot find field.";
            }
        }
        if (schema.getValue("properties") instanceof JsonObject properties) {
            if (properties.isEmpty() && "object".equalsIgnoreCase(schema.getString("type"))) {
                return "* GenerateContentRequest." + at + ".properties: should be non-empty for OBJECT type";
            }
            for (String name : properties.fieldNames()) {
                String problem = schemaProblem(properties.getJsonObject(name), at + ".properties[" + name + "].value");
                if (problem != null) {
                    return problem;
                }
            }
        }
        if (schema.getValue("items") instanceof JsonObject items) {
            return schemaProblem(items, at + ".items");
        }
        return null;
    }

    private static String signatureKey(JsonObject call) {
        return call.getString("name") + call.getJsonObject("args", new JsonObject()).encode();
    }

    private void answer(Exchange exchange, Reply reply, HttpServerResponse response, boolean sse) {
        switch (reply) {
            case HttpError e -> error(response, e.status(), switch (e.status()) {
                case 400 -> "INVALID_ARGUMENT";
                case 403 -> "PERMISSION_DENIED";
                case 404 -> "NOT_FOUND";
                case 429 -> "RESOURCE_EXHAUSTED";
                case 503 -> "UNAVAILABLE";
                case 504 -> "DEADLINE_EXCEEDED";
                default -> "INTERNAL";
            }, switch (e.status()) {
                case 429 -> "Resource has been exhausted (e.g. check quota).";
                case 503 -> "The model is overloaded. Please try again later.";
                case 500 -> "An internal error has occurred. Please retry or report in"
                        + " https://developers.generativeai.google/guide/troubleshooting";
                default -> "Request contains an invalid argument.";
            }, null);
            case Hang h -> response.setChunked(true).putHeader("content-type", "text/event-stream").writeHead();
            case Garbage g -> response.putHeader("content-type", "text/event-stream")
                    .end("data: {\"candidates\": not json\r\n\r\n");
            default -> {
                if (!sse) {
                    error(response, 400, "INVALID_ARGUMENT", "this fake streams only with alt=sse", null);
                    return;
                }
                stream(exchange, reply, response);
            }
        }
    }

    private void stream(Exchange exchange, Reply reply, HttpServerResponse response) {
        JsonObject request = exchange.body();
        long prompt = promptTokens(request);
        String responseId = UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        List<String> events = new ArrayList<>();
        long candidates = 0;
        boolean complete = true;
        switch (reply) {
            case Text t -> {
                List<String> tokens = FakeOpenAi.tokens(t.content());
                for (int i = 0; i < tokens.size(); i++) {
                    boolean last = i == tokens.size() - 1;
                    candidates++;
                    events.add(chunk(exchange, new JsonArray().add(new JsonObject().put("text", tokens.get(i))),
                            last ? "STOP" : null, usage(prompt, last ? candidates : -1), responseId));
                }
            }
            case FunctionCalls c -> {
                JsonArray parts = new JsonArray();
                for (int i = 0; i < c.calls().size(); i++) {
                    FunctionCall call = c.calls().get(i);
                    JsonObject functionCall = new JsonObject().put("name", call.name()).put("args", call.args());
                    JsonObject part = new JsonObject().put("functionCall", functionCall);
                    if (i == 0) {
                        // Gemini 3 signs the first function call of a step.
                        String signature = Base64.getEncoder().encodeToString(UUID.randomUUID().toString()
                                .getBytes(StandardCharsets.UTF_8));
                        signatures.put(signatureKey(functionCall), signature);
                        part.put("thoughtSignature", signature);
                    }
                    parts.add(part);
                    candidates += 5;
                }
                events.add(chunk(exchange, parts, "STOP", usage(prompt, candidates), responseId));
            }
            case EndsEarly e -> {
                events.add("data: " + new JsonObject().put("usageMetadata", usage(prompt, -1))
                        .put("modelVersion", exchange.model()).put("responseId", responseId).encode() + "\r\n\r\n");
                complete = false;
            }
            case StreamError e -> {
                events.add("data: " + new JsonObject().put("error", new JsonObject().put("code", e.code())
                        .put("message", e.message()).put("status", e.status())).encode() + "\r\n\r\n");
                complete = false;
            }
            case Blocked b -> events.add("data: " + new JsonObject().put("candidates", new JsonArray().add(
                    new JsonObject().put("finishReason", "SAFETY").put("index", 0).put("safetyRatings",
                            new JsonArray().add(new JsonObject().put("category", "HARM_CATEGORY_DANGEROUS_CONTENT")
                                    .put("probability", "HIGH").put("blocked", true)))))
                    .put("usageMetadata", usage(prompt, 0)).put("modelVersion", exchange.model())
                    .put("responseId", responseId).encode() + "\r\n\r\n");
            default -> throw new IllegalStateException("not a streamed reply: " + reply);
        }
        response.setChunked(true).putHeader("content-type", "text/event-stream").writeHead();
        long candidatesTokens = candidates;
        boolean completes = complete;
        vertx.setTimer(Math.max(1, ttftMs), first -> {
            if (response.closed()) {
                return;
            }
            if (completes) {
                // Recorded first: the client may have read the whole answer before end() returns.
                exchange.promptTokens = prompt;
                exchange.candidatesTokens = candidatesTokens;
                exchange.completed = true;
            }
            response.end(String.join("", events));
        });
    }

    private static String chunk(Exchange exchange, JsonArray parts, String finishReason, JsonObject usage,
            String responseId) {
        JsonObject candidate = new JsonObject().put("content", new JsonObject().put("parts", parts)
                .put("role", "model")).put("index", 0);
        if (finishReason != null) {
            candidate.put("finishReason", finishReason);
        }
        return "data: " + new JsonObject().put("candidates", new JsonArray().add(candidate)).put("usageMetadata", usage)
                .put("modelVersion", exchange.model()).put("responseId", responseId).encode() + "\r\n\r\n";
    }

    /** {@code candidates} below 0: a chunk before the last, which carries only the prompt's count. */
    private static JsonObject usage(long prompt, long candidates) {
        JsonObject usage = new JsonObject().put("promptTokenCount", prompt);
        if (candidates >= 0) {
            usage.put("candidatesTokenCount", candidates);
        }
        return usage.put("totalTokenCount", prompt + Math.max(0, candidates));
    }

    /** The words of the system instruction and of every text part, and 4 per content. */
    private static long promptTokens(JsonObject request) {
        long count = 0;
        JsonObject system = request.getJsonObject("systemInstruction");
        List<Object> parts = new ArrayList<>();
        if (system != null) {
            parts.addAll(system.getJsonArray("parts", new JsonArray()).getList());
        }
        for (Object content : request.getJsonArray("contents", new JsonArray())) {
            count += 4;
            parts.addAll(((JsonObject) content).getJsonArray("parts", new JsonArray()).getList());
        }
        for (Object part : parts) {
            Object text = part instanceof JsonObject object ? object.getValue("text")
                    : part instanceof Map<?, ?> map ? map.get("text") : null;
            if (text instanceof String value) {
                count += FakeOpenAi.tokens(value).size();
            }
        }
        return count;
    }

    private static void error(HttpServerResponse response, int status, String code, String message, String reason) {
        JsonObject error = new JsonObject().put("code", status).put("message", message).put("status", code);
        if (reason != null) {
            error.put("details", new JsonArray().add(new JsonObject()
                    .put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", reason)
                    .put("domain", "googleapis.com")
                    .put("metadata", new JsonObject().put("service", "generativelanguage.googleapis.com"))));
        }
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }
}
