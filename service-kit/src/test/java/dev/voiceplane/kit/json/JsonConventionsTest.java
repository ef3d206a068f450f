package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

    @Test
    void timestampsAreWrittenAsTheFormatterWritesThem() {
        Random random = new Random(20261123);
        List<Instant> instants = new ArrayList<>(List.of(
                Instant.EPOCH, Instant.parse("2024-02-29T23:59:59.999Z"),
                Instant.parse("1969-12-31T23:59:59.001Z"), Instant.parse("0000-01-01T00:00:00Z"),
                Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-12-31T00:00:00Z")));
        for (int i = 0; i < 2_000; i++) {
            instants.add(Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L),
                    random.nextInt(1_000_000_000)));
        }
        for (Instant instant : instants) {
            assertEquals(JsonConventions.TIMESTAMP.format(instant), JsonConventions.timestamp(instant), instant.toString());
        }
    }
}
