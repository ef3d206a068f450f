package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeAnthropic;
import dev.voiceplane.runtime.fake.FakeAnthropic.Reply;
import dev.voiceplane.runtime.provider.AlternatingTurns;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Calls whose model is {@code anthropic}, through the runtime's media endpoint, with the Messages API played by
 * {@link FakeAnthropic}: a conversation (greeting, a turn, barge-in, the end), a tool's round trip through
 * call-service, and each way the API fails ending the call with {@code assistant-error}.
 */
@QuarkusTest
class AnthropicModelTest {

    private static final String MODEL = "\"provider\":\"anthropic\",\"model\":\"claude-haiku-4-5\",\"temperature\":0.3,"
            + "\"maxTokens\":300,\"messages\":[{\"role\":\"system\",\"content\":\"You answer for the Harbour Cafe.\"}]";
    private static final Map<String, String> KEYS = ModelCalls.keys("anthropic", FakeProviders.ANTHROPIC_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    private ModelCalls calls;
    private final FakeAnthropic anthropic = FakeProviders.anthropic();

    @BeforeEach
    void setUp() {
        calls = new ModelCalls(wireMock);
        anthropic.reset().script(request -> Reply.text(ModelCalls.answer(FakeAnthropic.lastUserText(request))));
    }

    @AfterEach
    void tearDown() {
        anthropic.reset();
    }

    @Test
    void aConversationIsHeldOnClaudeWithTheAssistantsModelAndKey() throws Exception {
        int before = anthropic.requestCount();
        ModelCalls.Held held = calls.converse(MODEL, KEYS);

        List<FakeAnthropic.Exchange> asked = anthropic.exchanges().subList(before, anthropic.requestCount());
        assertEquals(List.of(ModelCalls.MENU_QUESTION, ModelCalls.INTERRUPTION), asked.stream()
                .map(exchange -> FakeAnthropic.lastUserText(exchange.body())).toList(), "one request per turn");
        assertEquals(FakeProviders.ANTHROPIC_KEY, anthropic.lastApiKey(), "the organisation's key");
        assertEquals("2023-06-01", anthropic.lastVersion());
        for (FakeAnthropic.Exchange exchange : asked) {
            JsonObject body = exchange.body();
            assertEquals("claude-haiku-4-5", body.getString("model"), "the assistant's model id");
            assertEquals(300, body.getInteger("max_tokens"), "the assistant's maxTokens");
            assertEquals(0.3, body.getDouble("temperature"));
            assertEquals(true, body.getBoolean("stream"));
            assertEquals("You answer for the Harbour Cafe.", body.getString("system"), "the prompt is the system");
        }
        JsonArray first = asked.get(0).body().getJsonArray("messages");
        assertEquals(List.of("user", "assistant", "user"), roles(first), "turns alternate, opened by the caller");
        assertEquals(AlternatingTurns.CALL_STARTED, text(first.getJsonObject(0)));
        assertEquals(ModelCalls.GREETING, text(first.getJsonObject(1)), "the greeting is the assistant's turn");
        JsonArray second = asked.get(1).body().getJsonArray("messages");
        assertEquals(held.transcript().get(2).substring("bot: ".length()), text(second.getJsonObject(second.size() - 2)),
                "the model hears only what the caller heard of the interrupted answer");

        JsonNode usage = held.ended().path("usage");
        assertEquals(asked.stream().mapToLong(FakeAnthropic.Exchange::inputTokens).sum(),
                usage.path("llmPromptTokens").asLong(), "input tokens from message_start: " + usage);
        assertEquals(asked.stream().mapToLong(FakeAnthropic.Exchange::outputTokens).sum(),
                usage.path("llmCompletionTokens").asLong(), "output tokens from message_delta: " + usage);
    }

    @Test
    void aToolCallIsRunAndItsResultSentBackAsAToolResult() throws Exception {
        anthropic.script(request -> {
            String result = FakeAnthropic.lastToolResult(request);
            if (result != null) {
                return Reply.text(result.contains("ships tomorrow") ? "It ships tomorrow." : "I do not know.");
            }
            return ModelCalls.ORDER_QUESTION.equals(FakeAnthropic.lastUserText(request))
                    ? new FakeAnthropic.ToolUses(List.of(new FakeAnthropic.ToolUse("toolu_lookup_1", "lookup_order",
                            "{\"order\":42}")))
                    : Reply.text("You said: " + FakeAnthropic.lastUserText(request));
        });
        int before = anthropic.requestCount();
        JsonNode call = calls.toolRoundTrip(wireMock, MODEL, KEYS);

        assertEquals("toolu_lookup_1", call.path("id").asText(), "call-service gets Claude's tool_use id");
        List<JsonObject> asked = anthropic.requests().subList(before, anthropic.requestCount());
        assertEquals(2, asked.size(), "the model is asked again with the result");
        JsonObject tool = asked.get(0).getJsonArray("tools").getJsonObject(0);
        assertEquals("lookup_order", tool.getString("name"));
        assertEquals("Finds an order.", tool.getString("description"));
        assertEquals("number", tool.getJsonObject("input_schema").getJsonObject("properties").getJsonObject("order")
                .getString("type"), "the parameters are the input_schema: " + tool);
        JsonArray history = asked.get(1).getJsonArray("messages");
        JsonObject use = FakeAnthropic.blocks(history.getJsonObject(history.size() - 2)).get(0);
        assertEquals("assistant", history.getJsonObject(history.size() - 2).getString("role"));
        assertEquals("tool_use", use.getString("type"));
        assertEquals("toolu_lookup_1", use.getString("id"));
        assertEquals(new JsonObject().put("order", 42), use.getJsonObject("input"), "the arguments arrive whole");
        JsonObject result = FakeAnthropic.blocks(history.getJsonObject(history.size() - 1)).get(0);
        assertEquals("user", history.getJsonObject(history.size() - 1).getString("role"));
        assertEquals("tool_result", result.getString("type"));
        assertEquals("toolu_lookup_1", result.getString("tool_use_id"));
        assertEquals("Order 42 ships tomorrow.", result.getString("content"));
    }

    // ---- failures ---------------------------------------------------------------------------------------------------

    @Test
    void aKeyAnthropicRefusesEndsTheCall() throws Exception {
        calls.endsWithModelError(MODEL, ModelCalls.keys("anthropic", "sk-ant-revoked"), "anthropic", "auth");
        assertEquals("sk-ant-revoked", anthropic.lastApiKey(), "the organisation's key was the one sent");
    }

    @Test
    void aRateLimitEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.error(429));
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "rate-limited");
    }

    @Test
    void anOverloadedApiEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.error(529));
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "unavailable");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.error(500));
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "unavailable");
    }

    @Test
    void aRequestAnthropicRefusesEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.error(400));
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "refused");
    }

    @Test
    void anErrorEventInsideTheStreamEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.streamError("overloaded_error", "Overloaded"));
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "unavailable");
    }

    @Test
    void aModelThatNeverAnswersEndsTheCallAtTheFirstTokenDeadline() throws Exception {
        anthropic.script(request -> Reply.hang());
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "timeout");
    }

    @Test
    void aStreamThatIsNotJsonEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.garbage());
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "protocol");
    }

    @Test
    void aStreamThatEndsBeforeMessageStopEndsTheCall() throws Exception {
        anthropic.script(request -> Reply.endsEarly());
        calls.endsWithModelError(MODEL, KEYS, "anthropic", "protocol");
    }

    private static List<String> roles(JsonArray messages) {
        return messages.stream().map(message -> ((JsonObject) message).getString("role")).toList();
    }

    private static String text(JsonObject message) {
        return FakeAnthropic.blocks(message).stream().filter(block -> "text".equals(block.getString("type")))
                .map(block -> block.getString("text")).reduce("", (a, b) -> a.isEmpty() ? b : a + " " + b);
    }
}
