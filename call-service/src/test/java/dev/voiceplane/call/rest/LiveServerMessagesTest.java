package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Live server messages the runtime reports (runtime event {@code server-message}, docs/calls.md "Live messages"):
 * written to the outbox in the order reported, only for the kinds the assistant lists, in the server-message body
 * with the call; another organisation's call is a 404 and a malformed message a 400 in the error shape.
 */
@QuarkusTest
class LiveServerMessagesTest {

    private static final String ASSISTANT = "{\"name\":\"live\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"},"
            + "\"serverMessages\":[\"transcript\",\"speech-update\",\"conversation-update\",\"user-interrupted\"]}";

    @Inject
    AgroalDataSource dataSource;

    private final ObjectMapper json = new ObjectMapper();

    private static String webCall(String assistant) {
        return orgA().body("{\"assistant\":" + assistant + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
    }

    private static void post(String id, long sequence, String serverMessage, int status) {
        internal(TestKeys.ORG_A).body("{\"sequence\":" + sequence + ",\"type\":\"server-message\",\"serverMessage\":"
                + serverMessage + "}").when().post("/internal/call/" + id + "/runtime/events").then().statusCode(status);
    }

    @Test
    void theListedKindsAreWrittenInTheOrderReported() throws Exception {
        String id = webCall(ASSISTANT);
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200);
        post(id, 0, "{\"type\":\"speech-update\",\"status\":\"started\",\"role\":\"user\"}", 200);
        post(id, 1, "{\"type\":\"transcript\",\"role\":\"user\",\"transcriptType\":\"partial\",\"transcript\":\"Do you\"}", 200);
        post(id, 2, "{\"type\":\"model-output\",\"output\":\"Yes\"}", 200); // not listed
        post(id, 3, "{\"type\":\"transcript\",\"role\":\"user\",\"transcriptType\":\"final\","
                + "\"transcript\":\"Do you have parking?\",\"call\":{\"id\":\"forged\"}}", 200);
        post(id, 4, "{\"type\":\"user-interrupted\"}", 200);
        post(id, 5, "{\"type\":\"conversation-update\",\"messages\":[{\"role\":\"user\",\"message\":\"Do you have parking?\"}],"
                + "\"messagesOpenAIFormatted\":[{\"role\":\"user\",\"content\":\"Do you have parking?\"}]}", 200);
        post(id, 3, "{\"type\":\"transcript\",\"role\":\"user\",\"transcriptType\":\"final\",\"transcript\":\"again\"}", 200);

        List<String> types = Outboxes.types(dataSource, id);
        assertEquals(List.of("speech-update", "transcript", "transcript", "user-interrupted", "conversation-update"),
                types.subList(types.indexOf("speech-update"), types.size()),
                "in the order reported, model-output left out, a repeated sequence written once");
        List<String> transcripts = Outboxes.payloads(dataSource, id, "transcript");
        JsonNode last = json.readTree(transcripts.get(1)).path("message");
        assertEquals("transcript", last.path("type").asText());
        assertEquals("user", last.path("role").asText());
        assertEquals("final", last.path("transcriptType").asText());
        assertEquals("Do you have parking?", last.path("transcript").asText());
        assertEquals(id, last.path("call").path("id").asText(), "the call is call-service's, not the runtime's");
        assertFalse(last.path("timestamp").asText().isEmpty());
        JsonNode conversation = json.readTree(Outboxes.payloads(dataSource, id, "conversation-update").get(0))
                .path("message");
        assertEquals("Do you have parking?", conversation.path("messages").path(0).path("message").asText());
        assertEquals("user", conversation.path("messagesOpenAIFormatted").path(0).path("role").asText());
    }

    @Test
    void anAssistantThatListsNoneGetsNone() throws Exception {
        String id = webCall(CallCreationTest.INLINE); // the default kinds: no live ones
        post(id, 0, "{\"type\":\"transcript\",\"role\":\"user\",\"transcriptType\":\"final\",\"transcript\":\"Hi\"}", 200);
        post(id, 1, "{\"type\":\"speech-update\",\"status\":\"started\",\"role\":\"assistant\"}", 200);
        assertEquals(List.of("status-update"), Outboxes.types(dataSource, id));
    }

    @Test
    void afterTheEndNothingIsWritten() throws Exception {
        String id = webCall(ASSISTANT);
        orgA().when().post("/call/" + id + "/end").then().statusCode(200);
        internal(TestKeys.ORG_A).body("{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":"
                        + "\"user-interrupted\"}}").when().post("/internal/call/" + id + "/runtime/events")
                .then().statusCode(200).body("recorded", equalTo(true)).body("applied", equalTo(false));
        assertFalse(Outboxes.types(dataSource, id).contains("user-interrupted"));
    }

    @Test
    void anotherOrganisationsCallIsNotFoundAndBadMessagesAre400s() {
        String id = webCall(ASSISTANT);
        internal(TestKeys.ORG_B).body("{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":"
                        + "\"user-interrupted\"}}").when().post("/internal/call/" + id + "/runtime/events")
                .then().statusCode(404);
        orgA().body("{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":\"user-interrupted\"}}")
                .when().post("/internal/call/" + id + "/runtime/events").then().statusCode(401);
        String[][] bad = {
                {"{\"sequence\":0,\"type\":\"server-message\"}", "serverMessage must be an object with a type"},
                {"{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":\"status-update\"}}",
                        "serverMessage.type must be one of the following values: conversation-update, model-output, "
                                + "speech-update, transcript, user-interrupted"},
                {"{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":\"transcript\",\"role\":\"bot\","
                        + "\"transcriptType\":\"final\",\"transcript\":\"x\"}}",
                        "serverMessage.role must be one of the following values: assistant, user"},
                {"{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":\"speech-update\","
                        + "\"status\":\"paused\",\"role\":\"user\"}}",
                        "serverMessage.status must be one of the following values: started, stopped"},
                {"{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":\"conversation-update\","
                        + "\"messages\":{}}}", "serverMessage.messages must be an array"},
                {"{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":{\"type\":\"model-output\"}}",
                        "serverMessage.output must be given"},
                {"{\"sequence\":0,\"type\":\"server-message\",\"serverMessage\":\"transcript\"}", null}};
        for (String[] body : bad) {
            var answer = internal(TestKeys.ORG_A).body(body[0]).when().post("/internal/call/" + id + "/runtime/events")
                    .then().statusCode(400).body("statusCode", equalTo(400)).body("error", equalTo("Bad Request"));
            if (body[1] != null) {
                answer.body("message", hasItem(containsString(body[1])));
            }
        }
    }
}
