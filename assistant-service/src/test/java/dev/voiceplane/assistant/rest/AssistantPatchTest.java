package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.assistant.rest.Clients.object;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.assistant.rest.Clients.written;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * PATCH /assistant/{id}: a field present replaces the stored value (a nested object as a whole), an absent field
 * stays, {@code null} clears; updatedAt advances, createdAt never changes; a rejected PATCH changes nothing.
 */
@QuarkusTest
class AssistantPatchTest {

    private static final String STORED = """
            {"name": "Ada", "firstMessage": "Hello", "recordingEnabled": true, "silenceTimeoutSeconds": 30,
             "clientMessages": ["transcript", "hang"], "metadata": {"team": "sales", "tier": 2},
             "model": {"provider": "openai", "model": "gpt-4o", "temperature": 0.7, "maxTokens": 250,
                       "messages": [{"role": "system", "content": "Be brief."}]},
             "voice": {"provider": "azure", "voiceId": "en-US-JennyNeural", "speed": 1.1}}
            """;

    @Test
    void presentFieldsReplaceAbsentFieldsStay() {
        String id = createAssistant(orgA(), STORED);
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        JsonNode after = tree(orgA().body("{\"name\":\"Ada v2\",\"silenceTimeoutSeconds\":45,\"clientMessages\":[\"hang\"]}")
                .when().patch("/assistant/" + id).then().statusCode(200));

        ObjectNode expected = written(before);
        expected.put("name", "Ada v2");
        expected.set("silenceTimeoutSeconds", tree("45"));
        expected.set("clientMessages", tree("[\"hang\"]"));
        assertEquals(expected, written(after));
        assertEquals(after, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)));
    }

    @Test
    void anUnknownPropertySetToNullIsRejectedNotIgnored() {
        String id = createAssistant(orgA(), STORED);
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        orgA().body("{\"firstMessage\":null,\"serverUrlSecrett\":null}").when().patch("/assistant/" + id)
                .then().statusCode(400)
                .body("message", contains("property serverUrlSecrett should not exist"));
        assertEquals(before, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)));
    }

    @Test
    void nullClearsAField() {
        String id = createAssistant(orgA(), STORED);
        JsonNode after = tree(orgA().body("{\"firstMessage\":null,\"metadata\":null,\"voice\":null}")
                .when().patch("/assistant/" + id).then().statusCode(200));
        for (String cleared : new String[] {"firstMessage", "metadata", "voice"}) {
            assertFalse(after.has(cleared), cleared + " should be gone");
        }
        assertEquals("Ada", after.get("name").asText());
        JsonNode fetched = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        assertEquals(after, fetched);
        // Clearing what is not set is harmless.
        orgA().body("{\"endCallMessage\":null}").when().patch("/assistant/" + id).then().statusCode(200);
    }

    @Test
    void aNestedObjectIsReplacedAsAWhole() {
        String id = createAssistant(orgA(), STORED);
        JsonNode after = tree(orgA().body("{\"model\":{\"provider\":\"anthropic\",\"model\":\"claude-3-haiku-20240307\"},"
                        + "\"metadata\":{\"team\":\"support\"}}")
                .when().patch("/assistant/" + id).then().statusCode(200));
        assertEquals(object("{\"provider\":\"anthropic\",\"model\":\"claude-3-haiku-20240307\"}"), after.get("model"));
        assertEquals(object("{\"team\":\"support\"}"), after.get("metadata"));
        assertEquals(object("{\"provider\":\"azure\",\"voiceId\":\"en-US-JennyNeural\",\"speed\":1.1}"), after.get("voice"));
    }

    @Test
    void aPatchOfOnlyTheVoiceIsCheckedAgainstTheStoredRealtimeModelsVoices() {
        String id = createAssistant(orgA(), "{\"name\":\"realtime\",\"model\":{\"provider\":\"openai\","
                + "\"model\":\"gpt-realtime\"},\"voice\":{\"provider\":\"openai\",\"voiceId\":\"alloy\"}}");
        JsonNode after = tree(orgA().body("{\"voice\":{\"provider\":\"openai\",\"voiceId\":\"marin\"}}")
                .when().patch("/assistant/" + id).then().statusCode(200));
        assertEquals(object("{\"provider\":\"openai\",\"voiceId\":\"marin\"}"), after.get("voice"));
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        // nova is a voice of OpenAI's text-to-speech, not of the realtime model the assistant keeps.
        orgA().body("{\"voice\":{\"provider\":\"openai\",\"voiceId\":\"nova\"}}")
                .when().patch("/assistant/" + id).then().statusCode(400)
                .body("message", contains("voice.voiceId must be a voice of the realtime model gpt-realtime: alloy,"
                        + " ash, ballad, coral, echo, sage, shimmer, verse, marin, cedar"));
        assertEquals(before, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)),
                "a rejected PATCH changes nothing");
    }

    @Test
    void updatedAtAdvancesAndCreatedAtStays() {
        String id = createAssistant(orgA(), STORED);
        JsonNode created = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        JsonNode first = tree(orgA().body("{\"name\":\"one\"}").when().patch("/assistant/" + id).then().statusCode(200));
        JsonNode second = tree(orgA().body("{}").when().patch("/assistant/" + id).then().statusCode(200));
        assertEquals(created.get("createdAt"), first.get("createdAt"));
        assertEquals(created.get("createdAt"), second.get("createdAt"));
        assertEquals(created.get("id"), second.get("id"));
        assertEquals(created.get("orgId"), second.get("orgId"));
        assertTrue(instant(first, "updatedAt").isAfter(instant(created, "updatedAt")));
        assertTrue(instant(second, "updatedAt").isAfter(instant(first, "updatedAt")));
        // An empty PATCH changes no field.
        assertEquals(written(first), written(second));
    }

    @Test
    void aRejectedPatchChangesNothing() {
        String id = createAssistant(orgA(), STORED);
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));

        orgA().body("{\"name\":\"changed\",\"silenceTimeoutSeconds\":5}").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("silenceTimeoutSeconds must not be less than 10"));
        orgA().body("{\"name\":\"changed\",\"model\":{\"provider\":\"openai\"}}").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("model.model should not be null or undefined"));
        orgA().body("{\"name\":\"changed\",\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"temperature\":3,\"seed\":1}}")
                .when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("model.property seed should not exist"));
        orgA().body("{\"name\":\"changed\",\"voice\":{\"provider\":\"azure\",\"voiceId\":\"v\",\"inputMinCharacters\":0},"
                        + "\"backgroundSound\":\"rain\"}")
                .when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", containsInAnyOrder(
                        "voice.inputMinCharacters must not be less than 1",
                        "backgroundSound must be one of the following values: off, office"));
        orgA().body("{\"name\":5}").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("name must be a string"));
        orgA().body("{\"name\":\"changed\",\"bogus\":1}").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("property bogus should not exist"));
        orgA().body("{\"id\":\"" + id + "\",\"name\":\"changed\"}").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("property id should not exist"));
        orgA().body("{\"variableValues\":{}}").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("property variableValues should not exist"));
        orgA().body("[{\"name\":\"changed\"}]").when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("request body must be an object"));
        orgA().when().patch("/assistant/" + id)
                .then().statusCode(400).body("message", contains("request body must be a JSON object"));
        orgA().body("{\"name\": ").when().patch("/assistant/" + id).then().statusCode(400);

        assertEquals(before, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)));
    }

    @Test
    void patchedNumbersAndFreeFormJsonAreKeptExactly() {
        String id = createAssistant(orgA(), STORED);
        String metadata = "{\"price\":10.50,\"ratio\":0.30000000000000000001,\"list\":[null,{\"a\":1.0}]}";
        JsonNode after = tree(orgA().body("{\"metadata\":" + metadata + ",\"responseDelaySeconds\":0.50}")
                .when().patch("/assistant/" + id).then().statusCode(200));
        assertEquals(tree(metadata), after.get("metadata"));
        assertEquals("0.50", after.get("responseDelaySeconds").decimalValue().toPlainString());
        JsonNode fetched = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        assertEquals(after, fetched);
    }

    private static Instant instant(JsonNode resource, String field) {
        return Instant.parse(resource.get(field).asText());
    }
}
