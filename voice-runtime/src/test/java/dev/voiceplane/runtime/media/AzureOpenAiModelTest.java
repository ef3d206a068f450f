package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Calls whose model is {@code azure-openai}, through the runtime's media endpoint, with Azure's deployment API played
 * by {@link FakeOpenAi} on its Azure path ({@code VOICE_AZURE_OPENAI_URL} points at it): a conversation, a tool's
 * round trip, and failures ending the call with {@code assistant-error}.
 */
@QuarkusTest
class AzureOpenAiModelTest {

    private static final String MODEL = "\"provider\":\"azure-openai\",\"model\":\"gpt-4o-prod\",\"temperature\":0.3,"
            + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer for the Harbour Cafe.\"}]";
    private static final Map<String, String> KEYS = ModelCalls.keys("azure-openai", FakeProviders.AZURE_OPENAI_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    private ModelCalls calls;
    private final FakeOpenAi azure = FakeProviders.openai();

    @BeforeEach
    void setUp() {
        calls = new ModelCalls(wireMock);
        azure.script(request -> FakeOpenAi.Reply.text(ModelCalls.answer(FakeOpenAi.lastUserMessage(request))));
    }

    @AfterEach
    void tearDown() {
        azure.script(request -> new FakeOpenAi.Text("We open at nine."));
    }

    @Test
    void aConversationIsHeldOnTheAssistantsDeploymentWithTheOrganisationsKey() throws Exception {
        int before = azure.requestCount();
        ModelCalls.Held held = calls.converse(MODEL, KEYS);

        List<JsonObject> asked = azure.requests().subList(before, azure.requestCount());
        assertEquals(List.of(ModelCalls.MENU_QUESTION, ModelCalls.INTERRUPTION),
                asked.stream().map(FakeOpenAi::lastUserMessage).toList(), "one request per turn");
        assertEquals("gpt-4o-prod", azure.lastDeployment(), "the assistant's model is the deployment");
        assertEquals("2024-10-21", azure.lastApiVersion());
        assertEquals(FakeProviders.AZURE_OPENAI_KEY, azure.lastApiKeyHeader(), "the organisation's key, in api-key");
        assertNull(azure.lastAuthorization());
        assertEquals(0.3, asked.get(0).getDouble("temperature"));
        JsonArray second = asked.get(1).getJsonArray("messages");
        assertEquals("You answer for the Harbour Cafe.", second.getJsonObject(0).getString("content"));
        assertEquals(held.transcript().get(2).substring("bot: ".length()),
                second.getJsonObject(second.size() - 2).getString("content"), "the model hears what was heard");
        JsonNode usage = held.ended().path("usage");
        assertTrue(usage.path("llmPromptTokens").asLong() > 0 && usage.path("llmCompletionTokens").asLong() > 0,
                usage.toString());
    }

    @Test
    void aToolCallIsRunAndItsResultSentBack() throws Exception {
        azure.script(request -> {
            JsonArray messages = request.getJsonArray("messages");
            JsonObject last = messages.getJsonObject(messages.size() - 1);
            if ("tool".equals(last.getString("role"))) {
                return FakeOpenAi.Reply.text(last.getString("content").contains("ships tomorrow")
                        ? "It ships tomorrow." : "I do not know.");
            }
            return ModelCalls.ORDER_QUESTION.equals(FakeOpenAi.lastUserMessage(request))
                    ? new FakeOpenAi.ToolCalls(List.of(new FakeOpenAi.ToolCall("call_azure_1", "lookup_order",
                            "{\"order\":42}")))
                    : FakeOpenAi.Reply.text("You said: " + FakeOpenAi.lastUserMessage(request));
        });
        JsonNode call = calls.toolRoundTrip(wireMock, MODEL, KEYS);
        assertEquals("call_azure_1", call.path("id").asText());
        assertEquals("gpt-4o-prod", azure.lastDeployment());
        JsonArray history = azure.lastRequest().getJsonArray("messages");
        assertEquals("call_azure_1", history.getJsonObject(history.size() - 1).getString("tool_call_id"));
        assertEquals("Order 42 ships tomorrow.", history.getJsonObject(history.size() - 1).getString("content"));
    }

    @Test
    void aKeyAzureRefusesEndsTheCall() throws Exception {
        calls.endsWithModelError(MODEL, ModelCalls.keys("azure-openai", "aoai-revoked"), "azure-openai", "auth");
        assertEquals("aoai-revoked", azure.lastApiKeyHeader(), "the organisation's key was the one sent");
    }

    @Test
    void aServerErrorEndsTheCall() throws Exception {
        azure.script(request -> FakeOpenAi.Reply.error(500, "The server had an error while processing your request."));
        calls.endsWithModelError(MODEL, KEYS, "azure-openai", "unavailable");
    }

    @Test
    void aDeploymentAzureDoesNotHaveEndsTheCall() throws Exception {
        azure.forModel("gpt-4o-gone", FakeOpenAi.Reply.error(404, "The API deployment for this resource does not"
                + " exist."));
        calls.endsWithModelError(MODEL.replace("gpt-4o-prod", "gpt-4o-gone"), KEYS, "azure-openai", "refused");
        assertEquals("gpt-4o-gone", azure.lastDeployment());
    }
}
