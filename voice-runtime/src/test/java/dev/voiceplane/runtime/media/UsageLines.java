package dev.voiceplane.runtime.media;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lines of an {@code ended} event's usage as the tests compare them: {@code "provider model kind unit"} to the
 * quantity, for one assertion of all of them (a line the runtime should not have sent fails it too).
 */
final class UsageLines {

    private UsageLines() {
    }

    static Map<String, Number> of(JsonNode usage) {
        Map<String, Number> lines = new TreeMap<>();
        for (JsonNode line : usage.path("lines")) {
            String key = line.path("provider").asText() + " " + line.path("model").asText("-") + " "
                    + line.path("kind").asText() + " " + line.path("unit").asText();
            JsonNode quantity = line.path("quantity");
            Number value = quantity.isIntegralNumber() ? (Number) quantity.asLong() : (Number) quantity.asDouble();
            Number previous = lines.put(key, value);
            if (previous != null) {
                throw new AssertionError("two lines of " + key + ": " + usage);
            }
        }
        return lines;
    }

    /** The quantity of the one line of {@code provider model kind unit}. */
    static double quantity(JsonNode usage, String key) {
        Number quantity = of(usage).get(key);
        if (quantity == null) {
            throw new AssertionError("no line " + key + ": " + usage);
        }
        return quantity.doubleValue();
    }
}
