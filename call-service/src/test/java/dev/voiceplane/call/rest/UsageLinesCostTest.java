package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The runtime's usage lines costed (docs/calls.md, "Rate card"): by the default rates, by a provider's and a model's
 * price ({@code %test.voice.rates.lines} in application.properties), into {@code costBreakdown} and {@code costs},
 * which agree with {@code cost} exactly; and lines out of shape refused with a 400 in the error shape.
 */
@QuarkusTest
class UsageLinesCostTest {

    @Inject
    ObjectMapper json;

    private static String line(String provider, String model, String kind, String quantity, String unit) {
        return "{\"provider\":\"" + provider + "\"" + (model == null ? "" : ",\"model\":\"" + model + "\"")
                + ",\"kind\":\"" + kind + "\",\"quantity\":" + quantity + ",\"unit\":\"" + unit + "\"}";
    }

    private static String ended(long sequence, String usage) {
        return "{\"sequence\":" + sequence + ",\"type\":\"ended\",\"endedReason\":\"customer-ended-call\",\"usage\":"
                + usage + "}";
    }

    private static String webCall() {
        return TestClients.orgB().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
    }

    private static BigDecimal decimal(String value) {
        return new BigDecimal(value);
    }

    private static void assertAmount(String expected, JsonNode actual, String what) {
        assertEquals(0, decimal(expected).compareTo(actual.decimalValue()), what + ": " + actual);
    }

    @Test
    void linesAreCostedByTheirProviderModelAndKindAndEveryPartAgrees() throws Exception {
        String id = webCall();
        internal(TestKeys.ORG_B).body("{\"sequence\":0,\"type\":\"in-progress\"}").when()
                .post("/internal/call/" + id + "/runtime/events").then().statusCode(200);
        String lines = String.join(",",
                // deepgram's transcription at its provider's price: 1.5 min × 0.0043
                line("deepgram", "nova-3", "transcription", "90", "seconds"),
                // a chat model: prompt and completion at the defaults, its cached tokens at openai's price
                line("openai", "gpt-4o-mini", "prompt-tokens", "800", "tokens"),
                line("openai", "gpt-4o-mini", "cached-prompt-tokens", "200", "tokens"),
                line("openai", "gpt-4o-mini", "completion-tokens", "100", "tokens"),
                // a realtime model: its audio at the model's price, its cached audio at the kind's, its text at the defaults
                line("openai", "gpt-realtime", "audio-input-tokens", "1000", "tokens"),
                line("openai", "gpt-realtime", "text-input-tokens", "100", "tokens"),
                line("openai", "gpt-realtime", "cached-audio-input-tokens", "500", "tokens"),
                line("openai", "gpt-realtime", "audio-output-tokens", "500", "tokens"),
                line("openai", "gpt-realtime", "text-output-tokens", "50", "tokens"),
                line("11labs", "rachel", "characters", "400", "characters"));
        // The totals disagree with the lines on purpose: the lines are what is costed.
        internal(TestKeys.ORG_B).body(ended(1, "{\"sttSeconds\":1,\"llmPromptTokens\":1,\"llmCompletionTokens\":1,"
                        + "\"ttsCharacters\":1,\"lines\":[" + lines + "]}"))
                .when().post("/internal/call/" + id + "/runtime/events").then().statusCode(200);

        JsonNode call = json.readTree(TestClients.orgB().when().get("/call/" + id).then().statusCode(200).extract()
                .asString());
        JsonNode breakdown = call.path("costBreakdown");
        assertAmount("0.00645", breakdown.path("stt"), "deepgram's own price");
        // gpt-4o-mini 0.002 + 0.00025 + 0.001; gpt-realtime 0.032 + 0.00025 + 0.0002 + 0.032 + 0.0005
        assertAmount("0.0682", breakdown.path("llm"), "each model line at its price");
        assertAmount("0.006", breakdown.path("tts"), "the default voice rate");
        assertAmount("0", breakdown.path("transport"), "a web call has no transport");
        assertEquals(2600, breakdown.path("llmPromptTokens").asLong(), "every input token, text and audio, cached too");
        assertEquals(650, breakdown.path("llmCompletionTokens").asLong(), "every output token, text and audio");
        assertEquals(400, breakdown.path("ttsCharacters").asLong());
        BigDecimal parts = BigDecimal.ZERO;
        for (String part : List.of("transport", "stt", "llm", "tts", "platform")) {
            parts = parts.add(breakdown.path(part).decimalValue());
        }
        assertEquals(0, parts.compareTo(breakdown.path("total").decimalValue()), breakdown.toString());
        assertEquals(0, breakdown.path("total").decimalValue().compareTo(call.path("cost").decimalValue()));

        // costs: one entry per transcriber, model and voice, the transport and the platform; they sum to cost.
        Map<String, JsonNode> costs = new TreeMap<>();
        BigDecimal sum = BigDecimal.ZERO;
        for (JsonNode entry : call.path("costs")) {
            String who = switch (entry.path("type").asText()) {
                case "transcriber" -> "transcriber " + entry.path("transcriber").path("provider").asText() + "/"
                        + entry.path("transcriber").path("model").asText();
                case "model" -> "model " + entry.path("model").path("provider").asText() + "/"
                        + entry.path("model").path("model").asText();
                case "voice" -> "voice " + entry.path("voice").path("provider").asText() + "/"
                        + entry.path("voice").path("voiceId").asText();
                default -> entry.path("type").asText();
            };
            assertEquals(null, costs.put(who, entry), "one entry of " + who + ": " + call.path("costs"));
            sum = sum.add(entry.path("cost").decimalValue());
        }
        assertEquals(List.of("model openai/gpt-4o-mini", "model openai/gpt-realtime", "transcriber deepgram/nova-3",
                "transport", "vapi", "voice 11labs/rachel"), new ArrayList<>(costs.keySet()), call.path("costs").toString());
        assertEquals(0, sum.compareTo(call.path("cost").decimalValue()), "costs sum to cost: " + call.path("costs"));
        assertAmount("1.5", costs.get("transcriber deepgram/nova-3").path("minutes"), "minutes");
        assertAmount("0.00645", costs.get("transcriber deepgram/nova-3").path("cost"), "transcriber");
        JsonNode chat = costs.get("model openai/gpt-4o-mini");
        assertEquals(1000, chat.path("promptTokens").asLong());
        assertEquals(200, chat.path("cachedPromptTokens").asLong());
        assertEquals(100, chat.path("completionTokens").asLong());
        assertAmount("0.00325", chat.path("cost"), "chat model");
        JsonNode realtime = costs.get("model openai/gpt-realtime");
        assertEquals(1600, realtime.path("promptTokens").asLong());
        assertEquals(500, realtime.path("cachedPromptTokens").asLong());
        assertEquals(550, realtime.path("completionTokens").asLong());
        assertAmount("0.06495", realtime.path("cost"), "realtime model");
        assertEquals(400, costs.get("voice 11labs/rachel").path("characters").asLong());
        assertAmount("0.006", costs.get("voice 11labs/rachel").path("cost"), "voice");
        assertEquals("normal", costs.get("vapi").path("subType").asText());
        assertEquals(0, costs.get("vapi").path("cost").decimalValue().compareTo(breakdown.path("platform")
                .decimalValue()));
        assertTrue(!costs.get("transport").has("provider"), "a web call's transport names no carrier");
    }

    @Test
    void linesOutOfShapeAreA400InTheErrorShape() {
        String id = webCall();
        String path = "/internal/call/" + id + "/runtime/events";
        internal(TestKeys.ORG_B).body(ended(1, "{\"lines\":[" + line("deepgram", null, "transcription", "-1", "seconds")
                        + "]}")).when().post(path).then().statusCode(400)
                .body("error", equalTo("Bad Request")).body("statusCode", equalTo(400))
                .body("message", hasItem("usage.lines.0.quantity must not be less than 0"));
        internal(TestKeys.ORG_B).body(ended(1, "{\"lines\":[" + line("deepgram", null, "transcription", "1", "minutes")
                        + "]}")).when().post(path).then().statusCode(400)
                .body("message", hasItem(containsString("usage.lines.0.unit must be one of")));
        internal(TestKeys.ORG_B).body(ended(1, "{\"lines\":[" + line("deepgram", null, "transcription", "1", "tokens")
                        + "]}")).when().post(path).then().statusCode(400)
                .body("message", hasItem("usage.lines.0.unit must be seconds for the kind transcription"));
        internal(TestKeys.ORG_B).body(ended(1, "{\"lines\":[" + line("openai", "gpt-4o", "thinking-tokens", "1",
                        "tokens") + "]}")).when().post(path).then().statusCode(400)
                .body("message", hasItem(containsString("usage.lines.0.kind must be one of")));
        List<String> many = new ArrayList<>();
        for (int i = 0; i <= 200; i++) {
            many.add(line("openai", "model-" + i, "prompt-tokens", "1", "tokens"));
        }
        internal(TestKeys.ORG_B).body(ended(1, "{\"lines\":[" + String.join(",", many) + "]}")).when().post(path)
                .then().statusCode(400).body("message", hasItem(allOf(startsWith("usage.lines must be"), containsString("200"))));
        // Nothing was applied: the call is still live, and a good end is taken.
        TestClients.orgB().when().get("/call/" + id).then().statusCode(200).body("status", not(equalTo("ended")));
        internal(TestKeys.ORG_B).body(ended(1, "{\"lines\":[" + line("deepgram", null, "transcription", "30", "seconds")
                + "]}")).when().post(path).then().statusCode(200);
        TestClients.orgB().when().get("/call/" + id).then().statusCode(200).body("status", equalTo("ended"))
                .body("costs.find { it.type == 'transcriber' }.transcriber.provider", equalTo("deepgram"))
                .body("costs.find { it.type == 'transcriber' }.minutes", equalTo(0.5f));
    }
}
