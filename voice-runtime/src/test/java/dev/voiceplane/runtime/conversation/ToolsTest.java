package dev.voiceplane.runtime.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ToolsTest {

    private final ObjectMapper json = new ObjectMapper();

    private JsonNode read(String text) throws Exception {
        return json.readTree(text);
    }

    @Test
    void aMessageWhoseConditionsHoldIsChosenBeforeTheGeneralOne() throws Exception {
        JsonNode tool = read("""
                {"messages":[{"type":"request-start","content":"One moment."},
                  {"type":"request-start","content":"A big order!","conditions":[
                    {"param":"order","operator":"gte","value":100},{"param":"shop.city","operator":"eq","value":"Leeds"}]},
                  {"type":"request-failed","content":"Sorry."}]}""");
        assertEquals("A big order!", Tools.pick(tool, "request-start",
                read("{\"order\":150,\"shop\":{\"city\":\"Leeds\"}}")).path("content").asText());
        assertEquals("One moment.", Tools.pick(tool, "request-start",
                read("{\"order\":150,\"shop\":{\"city\":\"York\"}}")).path("content").asText(), "all must hold");
        assertEquals("One moment.", Tools.pick(tool, "request-start", read("{}")).path("content").asText());
        assertNull(Tools.pick(tool, "request-complete", read("{}")));
    }

    @Test
    void conditionsCompareNumbersAsNumbersAndTheRestAsText() throws Exception {
        assertTrue(Tools.holds(read("{\"param\":\"n\",\"operator\":\"gt\",\"value\":9}"), read("{\"n\":10}")));
        assertTrue(Tools.holds(read("{\"param\":\"n\",\"operator\":\"gt\",\"value\":9}"), read("{\"n\":\"10\"}")),
                "a number written as text still compares as a number");
        assertFalse(Tools.holds(read("{\"param\":\"n\",\"operator\":\"lt\",\"value\":9}"), read("{\"n\":10}")));
        assertTrue(Tools.holds(read("{\"param\":\"n\",\"operator\":\"lte\",\"value\":10.0}"), read("{\"n\":10}")));
        assertTrue(Tools.holds(read("{\"param\":\"kind\",\"operator\":\"neq\",\"value\":\"a\"}"),
                read("{\"kind\":\"b\"}")));
        assertTrue(Tools.holds(read("{\"param\":\"ok\",\"operator\":\"eq\",\"value\":true}"), read("{\"ok\":true}")));
        assertFalse(Tools.holds(read("{\"param\":\"missing\",\"operator\":\"eq\",\"value\":1}"), read("{}")));
        assertTrue(Tools.holds(read("{\"param\":\"missing\",\"operator\":\"neq\",\"value\":1}"), read("{}")));
        assertFalse(Tools.holds(read("{\"param\":\"n\",\"operator\":\"like\",\"value\":1}"), read("{\"n\":1}")));
    }

    @Test
    void argumentsThatAreNotAJsonObjectAreEmpty() {
        assertEquals(0, Tools.arguments("not json").size());
        assertEquals(0, Tools.arguments("[1,2]").size());
        assertEquals(0, Tools.arguments("").size());
        assertEquals(7, Tools.arguments("{\"a\":7}").path("a").asInt());
    }
}
