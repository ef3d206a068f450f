package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeGemini;
import dev.voiceplane.runtime.fake.FakeGemini.Reply;
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
 * Calls whose model is {@code google}, through the runtime's media endpoint, with the Gemini API played by
 * {@link FakeGemini}: a conversation (greeting, a turn, barge-in, the end), a function call's round trip through
 * call-service, and each way the API fails ending the call with {@code assistant-error}.
 */
@QuarkusTest
class GoogleModelTest {

    private static final String MODEL = "\"provider\":\"google\",\"model\":\"gemini-2.5-flash\",\"temperature\":0.3,"
            + "\"maxTokens\":300,\"messages\":[{\"role\":\"system\",\"content\":\"You answer for the Harbour Cafe.\"}]";
    private static final Map<String, String> KEYS = ModelCalls.keys("google", FakeProviders.GOOGLE_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    private ModelCalls calls;
    private final FakeGemini gemini = FakeProviders.gemini();

    @BeforeEach
    void setUp() {
        calls = new ModelCalls(wireMock);
        gemini.reset().script(request -> Reply.text(ModelCalls.answer(FakeGemini.lastUserText(request))));
    }

    @AfterEach
    void tearDown() {
        gemini.reset();
    }

    @Test
    void aConversationIsHeldOnGeminiWithTheAssistantsModelAndKey() throws Exception {
        int before = gemini.requestCount();
        ModelCalls.Held held = calls.converse(MODEL, KEYS);

        List<FakeGemini.Exchange> asked = gemini.exchanges().subList(before, gemini.requestCount());
        assertEquals(List.of(ModelCalls.MENU_QUESTION, ModelCalls.INTERRUPTION), asked.stream()
                .map(exchange -> FakeGemini.lastUserText(exchange.body())).toList(), "one request per turn");
        assertEquals(FakeProviders.GOOGLE_KEY, gemini.lastApiKey(), "the organisation's key");
        for (FakeGemini.Exchange exchange : asked) {
            assertEquals("gemini-2.5-flash", exchange.model(), "the assistant's model id, in the URL");
            JsonObject body = exchange.body();
            assertEquals(new JsonObject().put("temperature", 0.3).put("maxOutputTokens", 300),
                    body.getJsonObject("generationConfig"), "the assistant's sampling settings");
            assertEquals("You answer for the Harbour Cafe.", body.getJsonObject("systemInstruction")
                    .getJsonArray("parts").getJsonObject(0).getString("text"), "the prompt is the system instruction");
        }
        JsonArray first = asked.get(0).body().getJsonArray("contents");
        assertEquals(List.of("user", "model", "user"), roles(first), "turns alternate, opened by the caller");
        assertEquals(AlternatingTurns.CALL_STARTED, text(first.getJsonObject(0)));
        assertEquals(ModelCalls.GREETING, text(first.getJsonObject(1)), "the greeting is the model's turn");
        JsonArray second = asked.get(1).body().getJsonArray("contents");
        assertEquals(held.transcript().get(2).substring("bot: ".length()), text(second.getJsonObject(second.size() - 2)),
                "the model hears only what the caller heard of the interrupted answer");

        JsonNode usage = held.ended().path("usage");
        assertEquals(asked.stream().mapToLong(FakeGemini.Exchange::promptTokens).sum(),
                usage.path("llmPromptTokens").asLong(), "promptTokenCount: " + usage);
        assertEquals(asked.stream().mapToLong(FakeGemini.Exchange::candidatesTokens).sum(),
                usage.path("llmCompletionTokens").asLong(), "candidatesTokenCount: " + usage);
    }

    @Test
    void aFunctionCallIsRunAndItsResultSentBackAsAFunctionResponse() throws Exception {
        gemini.script(request -> {
            JsonObject response = FakeGemini.lastFunctionResponse(request);
            if (response != null) {
                return Reply.text(response.getJsonObject("response").getString("result", "").contains("ships tomorrow")
                        ? "It ships tomorrow." : "I do not know.");
            }
            return ModelCalls.ORDER_QUESTION.equals(FakeGemini.lastUserText(request))
                    ? Reply.functionCall("lookup_order", new JsonObject().put("order", 42))
                    : Reply.text("You said: " + FakeGemini.lastUserText(request));
        });
        int before = gemini.requestCount();
        JsonNode call = calls.toolRoundTrip(wireMock, MODEL, KEYS);

        String id = call.path("id").asText();
        assertTrue(id.startsWith("call_") && id.length() > 10, "Gemini gave no id: the runtime made one: " + id);
        List<FakeGemini.Exchange> asked = gemini.exchanges().subList(before, gemini.requestCount());
        assertEquals(2, asked.size(), "the model is asked again with the result (the fake refuses a history without"
                + " the call's thought signature or with a schema it does not take)");
        JsonObject declaration = asked.get(0).body().getJsonArray("tools").getJsonObject(0)
                .getJsonArray("functionDeclarations").getJsonObject(0);
        assertEquals("lookup_order", declaration.getString("name"));
        assertEquals("Finds an order.", declaration.getString("description"));
        JsonObject parameters = declaration.getJsonObject("parameters");
        assertEquals("number", parameters.getJsonObject("properties").getJsonObject("order").getString("type"));
        assertEquals(new JsonArray().add("order"), parameters.getJsonArray("required"));
        assertFalse(parameters.containsKey("additionalProperties"), "stripped: Gemini refuses it");
        JsonArray history = asked.get(1).body().getJsonArray("contents");
        JsonObject model = history.getJsonObject(history.size() - 2);
        assertEquals("model", model.getString("role"));
        JsonObject functionCall = model.getJsonArray("parts").getJsonObject(0).getJsonObject("functionCall");
        assertEquals(new JsonObject().put("id", id).put("name", "lookup_order").put("args",
                new JsonObject().put("order", 42)), functionCall);
        JsonObject user = history.getJsonObject(history.size() - 1);
        assertEquals("user", user.getString("role"), "function responses are the user's, as the API documents");
        assertEquals(new JsonObject().put("id", id).put("name", "lookup_order").put("response",
                new JsonObject().put("result", "Order 42 ships tomorrow.")),
                user.getJsonArray("parts").getJsonObject(0).getJsonObject("functionResponse"));
    }

    // ---- failures ---------------------------------------------------------------------------------------------------

    @Test
    void aKeyGoogleDoesNotKnowEndsTheCall() throws Exception {
        calls.endsWithModelError(MODEL, ModelCalls.keys("google", "AIza-revoked"), "google", "auth");
        assertEquals("AIza-revoked", gemini.lastApiKey(), "the organisation's key was the one sent");
    }

    @Test
    void anExhaustedQuotaEndsTheCall() throws Exception {
        gemini.script(request -> Reply.error(429));
        calls.endsWithModelError(MODEL, KEYS, "google", "rate-limited");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        gemini.script(request -> Reply.error(500));
        calls.endsWithModelError(MODEL, KEYS, "google", "unavailable");
    }

    @Test
    void anOverloadedModelEndsTheCall() throws Exception {
        gemini.script(request -> Reply.error(503));
        calls.endsWithModelError(MODEL, KEYS, "google", "unavailable");
    }

    @Test
    void anErrorInsideTheStreamEndsTheCall() throws Exception {
        gemini.script(request -> Reply.streamError(500, "INTERNAL", "An internal error has occurred."));
        calls.endsWithModelError(MODEL, KEYS, "google", "unavailable");
    }

    @Test
    void aModelThatNeverAnswersEndsTheCallAtTheFirstTokenDeadline() throws Exception {
        gemini.script(request -> Reply.hang());
        calls.endsWithModelError(MODEL, KEYS, "google", "timeout");
    }

    @Test
    void aStreamThatIsNotJsonEndsTheCall() throws Exception {
        gemini.script(request -> Reply.garbage());
        calls.endsWithModelError(MODEL, KEYS, "google", "protocol");
    }

    @Test
    void aStreamThatEndsWithoutAFinishReasonEndsTheCall() throws Exception {
        gemini.script(request -> Reply.endsEarly());
        calls.endsWithModelError(MODEL, KEYS, "google", "protocol");
    }

    @Test
    void anAnswerBlockedForSafetyEndsTheCall() throws Exception {
        gemini.script(request -> Reply.blocked());
        calls.endsWithModelError(MODEL, KEYS, "google", "refused");
    }

    private static List<String> roles(JsonArray contents) {
        return contents.stream().map(content -> ((JsonObject) content).getString("role")).toList();
    }

    private static String text(JsonObject content) {
        return content.getJsonArray("parts").stream().map(part -> ((JsonObject) part).getString("text"))
                .filter(text -> text != null).reduce("", (a, b) -> a.isEmpty() ? b : a + " " + b);
    }
}
