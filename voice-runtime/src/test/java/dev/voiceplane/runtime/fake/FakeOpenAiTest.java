package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake OpenAI chat completions server, read as an SSE client would. */
class FakeOpenAiTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private FakeOpenAi openai;

    @BeforeEach
    void start() {
        openai = new FakeOpenAi("sk-test");
    }

    @AfterEach
    void stop() {
        openai.close();
    }

    @Test
    void streamsTheEchoAsParseableServerSentEvents() throws Exception {
        openai.ttftMs(30).tokensPerSecond(200);
        HttpResponse<String> response = post("sk-test", request("gpt-4o-mini", "what time is it", true, true));
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));

        List<String> data = data(response.body());
        assertEquals("[DONE]", data.get(data.size() - 1));
        List<JsonObject> chunks = data.subList(0, data.size() - 1).stream().map(JsonObject::new).toList();
        JsonObject first = chunks.get(0);
        assertEquals("chat.completion.chunk", first.getString("object"));
        assertEquals("gpt-4o-mini", first.getString("model"));
        assertEquals("assistant", choice(first).getJsonObject("delta").getString("role"));
        StringBuilder content = new StringBuilder();
        String finish = null;
        for (JsonObject chunk : chunks.subList(0, chunks.size() - 1)) {
            JsonObject choice = choice(chunk);
            content.append(choice.getJsonObject("delta").getString("content", ""));
            if (choice.getValue("finish_reason") != null) {
                finish = choice.getString("finish_reason");
            }
        }
        assertEquals("You said: what time is it.", content.toString());
        assertEquals("stop", finish);
        JsonObject usage = chunks.get(chunks.size() - 1);
        assertEquals(new JsonArray(), usage.getJsonArray("choices"));
        assertEquals(6, usage.getJsonObject("usage").getInteger("completion_tokens"), "You |said: |what |time |is |it.");
        assertEquals(usage.getJsonObject("usage").getInteger("prompt_tokens") + 6,
                usage.getJsonObject("usage").getInteger("total_tokens"));
        assertEquals("what time is it", FakeOpenAi.lastUserMessage(openai.lastRequest()));
        assertEquals("Bearer sk-test", openai.lastAuthorization());
    }

    @Test
    void streamsScriptedToolCalls() throws Exception {
        openai.script(request -> FakeOpenAi.Reply.toolCall("endCall", "{\"reason\":\"caller said goodbye\"}"));
        List<String> data = data(post("sk-test", request("m", "bye", true, false)).body());
        assertEquals("[DONE]", data.get(data.size() - 1));
        StringBuilder arguments = new StringBuilder();
        String name = null;
        String finish = null;
        for (String event : data.subList(0, data.size() - 1)) {
            JsonObject choice = choice(new JsonObject(event));
            JsonArray calls = choice.getJsonObject("delta").getJsonArray("tool_calls");
            if (calls != null) {
                JsonObject call = calls.getJsonObject(0);
                assertEquals(0, call.getInteger("index"));
                if (call.containsKey("id")) {
                    assertEquals("function", call.getString("type"));
                    name = call.getJsonObject("function").getString("name");
                }
                arguments.append(call.getJsonObject("function").getString("arguments"));
            }
            if (choice.getValue("finish_reason") != null) {
                finish = choice.getString("finish_reason");
            }
        }
        assertEquals("endCall", name);
        assertEquals("caller said goodbye", new JsonObject(arguments.toString()).getString("reason"));
        assertEquals("tool_calls", finish);
    }

    @Test
    void nonStreamingQueuedRepliesAndPerModelFailures() throws Exception {
        openai.enqueue(FakeOpenAi.Reply.text("First queued.")).forModel("primary",
                FakeOpenAi.Reply.error(500, "The server had an error"));
        JsonObject completion = new JsonObject(post("sk-test", request("fallback", "hi", false, false)).body());
        assertEquals("chat.completion", completion.getString("object"));
        assertEquals("First queued.", choice(completion).getJsonObject("message").getString("content"));
        assertEquals("stop", choice(completion).getString("finish_reason"));
        completion = new JsonObject(post("sk-test", request("fallback", "again", false, false)).body());
        assertEquals("You said: again.", choice(completion).getJsonObject("message").getString("content"));

        HttpResponse<String> failed = post("sk-test", request("primary", "hi", true, false));
        assertEquals(500, failed.statusCode());
        assertEquals("The server had an error", new JsonObject(failed.body()).getJsonObject("error")
                .getString("message"));
        openai.enqueue(FakeOpenAi.Reply.error(429, "Rate limit reached"));
        assertEquals(429, post("sk-test", request("fallback", "hi", true, false)).statusCode());
        assertEquals(4, openai.requestCount());
        assertEquals(List.of("fallback", "fallback", "primary", "fallback"),
                openai.requests().stream().map(r -> r.getString("model")).toList());
    }

    @Test
    void wrongKeyIs401AndNotRecorded() throws Exception {
        HttpResponse<String> response = post("sk-wrong", request("m", "hi", true, false));
        assertEquals(401, response.statusCode());
        assertEquals("invalid_api_key", new JsonObject(response.body()).getJsonObject("error").getString("code"));
        assertEquals(0, openai.requestCount());
        assertNull(openai.lastRequest());
    }

    @Test
    void garbageAndHang() throws Exception {
        openai.enqueue(FakeOpenAi.Reply.garbage(), FakeOpenAi.Reply.hang());
        String garbage = post("sk-test", request("m", "hi", true, false)).body();
        assertThrows(RuntimeException.class, () -> new JsonObject(data(garbage).get(0)));

        HttpRequest hang = HttpRequest.newBuilder(URI.create(openai.baseUrl() + "/chat/completions"))
                .header("Authorization", "Bearer sk-test").timeout(Duration.ofMillis(300))
                .POST(HttpRequest.BodyPublishers.ofString(request("m", "hi", false, false).encode())).build();
        assertThrows(HttpTimeoutException.class, () -> http.send(hang, HttpResponse.BodyHandlers.ofString()));
    }

    private HttpResponse<String> post(String key, JsonObject body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(openai.baseUrl() + "/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject request(String model, String said, boolean stream, boolean usage) {
        JsonObject request = new JsonObject().put("model", model).put("stream", stream).put("messages",
                new JsonArray().add(new JsonObject().put("role", "system").put("content", "You are terse."))
                        .add(new JsonObject().put("role", "user").put("content", said)));
        if (usage) {
            request.put("stream_options", new JsonObject().put("include_usage", true));
        }
        return request;
    }

    /** The {@code data:} payloads of an event stream, in order. */
    private static List<String> data(String body) {
        List<String> data = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("data: ")) {
                data.add(line.substring("data: ".length()));
            }
        }
        return data;
    }

    private static JsonObject choice(JsonObject chunk) {
        return chunk.getJsonArray("choices").getJsonObject(0);
    }
}
