package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonConventionsTest {

    private final ObjectMapper json = JsonConventions.apply(new ObjectMapper());

    @Test
    void freeFormJsonKeepsItsNumbersAsWritten() throws Exception {
        String written = "{\"price\":10.50,\"ratio\":0.30000000000000000001,\"whole\":100.000,"
                + "\"big\":123456789012345678901234567890,\"small\":7,\"list\":[1.0,2.25,-3]}";
        JsonNode tree = json.readTree(written);
        assertEquals(written, json.writeValueAsString(tree));
        assertEquals(tree, json.readTree(json.writeValueAsString(tree)));
    }
}
