package dev.voiceplane.runtime.provider.google;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a neutral {@link ChatRequest} is written in the Gemini API's format. */
class GeminiChatTest {

    private final ObjectMapper json = new ObjectMapper();
    private final GeminiChat chat = new GeminiChat(null, null, json, "google", "http://unused", "key", 1000, 1000);

    private JsonNode body(List<ChatMessage> messages, List<ToolSpec> tools, Double temperature, Integer maxTokens) {
        return chat.body(new ChatRequest("gemini-2.5-flash", messages, tools, temperature, maxTokens));
    }

    @Test
    void theOpeningSystemMessagesAreTheInstructionAndLaterOnesStayWhereTheyStand() throws Exception {
        JsonNode body = body(List.of(
                new ChatMessage("system", "You answer for a cafe."),
                new ChatMessage("system", "Be brief."),
                new ChatMessage("assistant", "Hello, cafe."),
                new ChatMessage("user", "Can you transfer me?"),
                new ChatMessage("assistant", "Transferring you now."),
                new ChatMessage("system", "The transfer failed: nobody answered. Tell the caller.")),
                List.of(), null, null);
        assertEquals(json.readTree("{\"parts\":[{\"text\":\"You answer for a cafe.\\n\\nBe brief.\"}]}"),
                body.path("systemInstruction"));
        assertEquals(json.readTree("""
                [{"role":"user","parts":[{"text":"(The call is connected.)"}]},
                 {"role":"model","parts":[{"text":"Hello, cafe."}]},
                 {"role":"user","parts":[{"text":"Can you transfer me?"}]},
                 {"role":"model","parts":[{"text":"Transferring you now."}]},
                 {"role":"user","parts":[{"text":"The transfer failed: nobody answered. Tell the caller."}]}]"""),
                body.path("contents"));
        assertFalse(body.has("generationConfig"), "the model's defaults");
        assertFalse(body.has("tools"));

        JsonNode set = body(List.of(new ChatMessage("user", "Hi.")), List.of(), 0.7, 150);
        assertEquals(json.readTree("{\"temperature\":0.7,\"maxOutputTokens\":150}"), set.path("generationConfig"));
    }

    @Test
    void callsFromAnotherModelCarryThePlaceholderSignatureOnTheFirstCallOfTheirTurn() throws Exception {
        JsonNode body = body(List.of(
                new ChatMessage("user", "Order 42 and 43?"),
                ChatMessage.toolCalls(List.of(new ToolCall("call_a", "lookup_order", "{\"order\":42}"),
                        new ToolCall("call_b", "lookup_order", "{\"order\":43}"))),
                ChatMessage.toolResult("call_a", "Ships tomorrow."),
                new ChatMessage("system", "A passage."),
                ChatMessage.toolResult("call_b", "Shipped.")), List.of(), null, null);
        assertEquals(json.readTree("""
                [{"role":"user","parts":[{"text":"Order 42 and 43?"}]},
                 {"role":"model","parts":[
                    {"functionCall":{"id":"call_a","name":"lookup_order","args":{"order":42}},
                     "thoughtSignature":"skip_thought_signature_validator"},
                    {"functionCall":{"id":"call_b","name":"lookup_order","args":{"order":43}}}]},
                 {"role":"user","parts":[
                    {"functionResponse":{"id":"call_a","name":"lookup_order","response":{"result":"Ships tomorrow."}}},
                    {"functionResponse":{"id":"call_b","name":"lookup_order","response":{"result":"Shipped."}}},
                    {"text":"A passage."}]}]"""), body.path("contents"));
    }

    @Test
    void parametersAreWrittenInTheApisSchemaAndWhatItRefusesIsStripped() throws Exception {
        JsonNode body = body(List.of(new ChatMessage("user", "Hi.")), List.of(
                new ToolSpec("book", "Books a table.", json.readTree("""
                        {"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
                         "title":"Booking","properties":{
                           "name":{"type":["string","null"],"description":"Who.","minLength":1},
                           "when":{"type":"string","format":"date-time"},
                           "email":{"type":"string","format":"email","pattern":".+@.+"},
                           "size":{"type":"integer","format":"int32","minimum":1,"maximum":12,"default":2},
                           "seat":{"oneOf":[{"type":"string","enum":["inside","terrace"]},{"type":"string","const":"bar"}]},
                           "notes":{"type":"array","items":{"type":"object","properties":{},"additionalProperties":true},
                                    "maxItems":3},
                           "ref":{"$ref":"#/$defs/ref"},
                           "loose":{"description":"No type."}},
                         "required":["name","size","missing"],"$defs":{"ref":{"type":"string"}}}""")),
                new ToolSpec("endCall", null, json.readTree("{\"type\":\"object\",\"properties\":{}}")),
                new ToolSpec("transfer", "Transfers.", null)), null, null);
        JsonNode declarations = body.path("tools").path(0).path("functionDeclarations");
        assertEquals(json.readTree("""
                {"name":"book","description":"Books a table.","parameters":{"type":"object","properties":{
                   "name":{"type":"string","nullable":true,"description":"Who."},
                   "when":{"type":"string","format":"date-time"},
                   "email":{"type":"string"},
                   "size":{"type":"integer","format":"int32","minimum":1,"maximum":12},
                   "seat":{"anyOf":[{"type":"string","enum":["inside","terrace"]},{"type":"string","enum":["bar"]}]},
                   "notes":{"type":"array","items":{"type":"object"},"maxItems":3},
                   "ref":{"type":"string"}},
                 "required":["name","size"]}}"""), declarations.path(0));
        assertEquals(json.readTree("{\"name\":\"endCall\"}"), declarations.path(1), "no properties: no parameters");
        assertEquals(json.readTree("{\"name\":\"transfer\",\"description\":\"Transfers.\"}"), declarations.path(2));
        assertNull(GeminiSchema.parameters(json, json.readTree("\"not a schema\"")));
    }

    @Test
    void aModelIdMayBeWrittenWithItsResourcePrefix() {
        assertEquals("gemini-2.5-flash", GeminiChat.modelPath("models/gemini-2.5-flash"));
        assertEquals("gemini-2.5-flash", GeminiChat.modelPath("gemini-2.5-flash"));
    }
}
