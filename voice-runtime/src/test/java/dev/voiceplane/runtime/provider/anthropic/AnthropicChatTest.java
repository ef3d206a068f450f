package dev.voiceplane.runtime.provider.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a neutral {@link ChatRequest} is written in the Messages API's format. */
class AnthropicChatTest {

    private final ObjectMapper json = new ObjectMapper();
    private final AnthropicChat chat = new AnthropicChat(null, null, json, "anthropic", "http://unused/v1/messages",
            "key", 1000, 1000);

    private JsonNode body(List<ChatMessage> messages, List<ToolSpec> tools, Double temperature, Integer maxTokens) {
        return chat.body(new ChatRequest("claude-sonnet-4-5", messages, tools, temperature, maxTokens));
    }

    @Test
    void theOpeningSystemMessagesAreTheSystemPromptAndLaterOnesStayWhereTheyStand() throws Exception {
        JsonNode body = body(List.of(
                new ChatMessage("system", "You answer for a cafe."),
                new ChatMessage("system", "Be brief."),
                new ChatMessage("user", "Can you transfer me?"),
                new ChatMessage("assistant", "Transferring you now."),
                new ChatMessage("system", "The transfer failed: nobody answered. Tell the caller."),
                new ChatMessage("system", "Passages: we open at nine.")), List.of(), null, null);
        assertEquals("You answer for a cafe.\n\nBe brief.", body.path("system").asText());
        assertEquals(json.readTree("""
                [{"role":"user","content":[{"type":"text","text":"Can you transfer me?"}]},
                 {"role":"assistant","content":[{"type":"text","text":"Transferring you now."}]},
                 {"role":"user","content":[{"type":"text","text":"The transfer failed: nobody answered. Tell the caller."},
                                           {"type":"text","text":"Passages: we open at nine."}]}]"""),
                body.path("messages"), "a later system message is a user turn's text block, in order");
        assertEquals(AnthropicChat.DEFAULT_MAX_TOKENS, body.path("max_tokens").asInt(), "max_tokens is required");
        assertFalse(body.has("temperature"), "no temperature: Anthropic's default");
        assertFalse(body.has("tools"));
        assertEquals(true, body.path("stream").asBoolean());
        assertEquals("claude-sonnet-4-5", body.path("model").asText());
    }

    @Test
    void aConversationTheAssistantOpenedBeginsWithAUserTurn() throws Exception {
        JsonNode body = body(List.of(new ChatMessage("system", "Prompt."), new ChatMessage("assistant", "Hello."),
                new ChatMessage("user", "Hi."), new ChatMessage("user", "Are you there?")), List.of(), 1.7, 200);
        assertEquals(json.readTree("""
                [{"role":"user","content":[{"type":"text","text":"(The call is connected.)"}]},
                 {"role":"assistant","content":[{"type":"text","text":"Hello."}]},
                 {"role":"user","content":[{"type":"text","text":"Hi."},{"type":"text","text":"Are you there?"}]}]"""),
                body.path("messages"), "consecutive user messages are one turn");
        assertEquals(1.0, body.path("temperature").asDouble(), "Anthropic takes 0 to 1");
        assertEquals(200, body.path("max_tokens").asInt());

        JsonNode empty = body(List.of(new ChatMessage("system", "Prompt.")), List.of(), 0.2, null);
        assertEquals(json.readTree("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"(The call is"
                + " connected.)\"}]}]"), empty.path("messages"), "a request without turns still has one");
        assertEquals(0.2, empty.path("temperature").asDouble());
    }

    @Test
    void toolCallsAreToolUseBlocksAndTheirResultsLeadTheNextUserTurn() throws Exception {
        JsonNode body = body(List.of(
                new ChatMessage("user", "Where is order 42?"),
                ChatMessage.toolCalls(List.of(new ToolCall("toolu_01", "lookup_order", "{\"order\":42}"),
                        new ToolCall("call.from:openai", "note", "not json"))),
                new ChatMessage("system", "A passage."),
                ChatMessage.toolResult("toolu_01", "Order 42 ships tomorrow."),
                ChatMessage.toolResult("call.from:openai", "")),
                List.of(new ToolSpec("lookup_order", "Finds an order.", json.readTree(
                        "{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"number\"}}}")),
                        new ToolSpec("endCall", null, null)), null, null);
        assertEquals(json.readTree("""
                [{"role":"user","content":[{"type":"text","text":"Where is order 42?"}]},
                 {"role":"assistant","content":[
                    {"type":"tool_use","id":"toolu_01","name":"lookup_order","input":{"order":42}},
                    {"type":"tool_use","id":"call_from_openai","name":"note","input":{}}]},
                 {"role":"user","content":[
                    {"type":"tool_result","tool_use_id":"toolu_01","content":"Order 42 ships tomorrow."},
                    {"type":"tool_result","tool_use_id":"call_from_openai"},
                    {"type":"text","text":"A passage."}]}]"""), body.path("messages"));
        assertEquals(json.readTree("""
                [{"name":"lookup_order","description":"Finds an order.",
                  "input_schema":{"type":"object","properties":{"order":{"type":"number"}}}},
                 {"name":"endCall","input_schema":{"type":"object","properties":{}}}]"""), body.path("tools"));
    }
}
