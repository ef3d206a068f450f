package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.assistant.rest.Clients.written;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.testing.Race;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** POST/GET/PATCH/DELETE /squad: members by id or inline, with overrides and destinations, returned as written. */
@QuarkusTest
class SquadResourceTest {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    static String fullSquad(String storedAssistantId) {
        return """
                {"members": [
                  {"assistantId": "%s",
                   "assistantOverrides": {"firstMessage": "Hi, billing here.", "silenceTimeoutSeconds": 20,
                                          "model": {"provider": "openai", "model": "gpt-4o-mini", "temperature": 0.25},
                                          "variableValues": {"customerName": "Mia", "openInvoices": 2, "balance": 120.50,
                                                             "flags": [true, null, {"vip": "yes"}]}},
                   "assistantDestinations": [{"type": "assistant", "assistantName": "Front desk",
                                              "message": "Back to the front desk.", "description": "Everything else"}]},
                  {"assistant": {"name": "Front desk", "firstMessage": "Alpine Dental, hello!",
                                 "model": {"provider": "anthropic", "model": "claude-3-haiku-20240307",
                                           "messages": [{"role": "system", "content": "Route callers."}]},
                                 "voice": {"provider": "11labs", "voiceId": "rachel"},
                                 "metadata": {"desk": 1}},
                   "assistantDestinations": [{"type": "assistant", "assistantName": "Billing", "description": "Invoices"}]}
                ]}
                """.formatted(storedAssistantId);
    }

    @Test
    void aSquadIsReturnedAsWritten() {
        String billing = createAssistant(orgA(), "{\"name\":\"Billing\"}");
        String body = fullSquad(billing);
        JsonNode created = tree(orgA().body(body).when().post("/squad").then().statusCode(201)
                .body("id", matchesPattern("[0-9a-f-]{36}"))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("createdAt", matchesPattern(TIMESTAMP))
                .body("updatedAt", matchesPattern(TIMESTAMP)));
        assertEquals(tree(body), written(created));
        JsonNode fetched = tree(orgA().when().get("/squad/" + created.get("id").asText()).then().statusCode(200));
        assertEquals(created, fetched);
    }

    @Test
    void theSameAssistantMayBeAMemberTwice() {
        String assistant = createAssistant(orgA());
        orgA().body("{\"members\":[{\"assistantId\":\"" + assistant + "\"},{\"assistantId\":\"" + assistant + "\","
                + "\"assistantOverrides\":{\"name\":\"second\"}}]}").when().post("/squad").then().statusCode(201);
    }

    @Test
    void deleteReturnsTheDeletedSquadAndItIsGone() {
        String squad = orgA().body("{\"members\":[{\"assistant\":{\"name\":\"inline\"}}]}").when().post("/squad")
                .then().statusCode(201).extract().path("id");
        JsonNode before = tree(orgA().when().get("/squad/" + squad).then().statusCode(200));
        assertEquals(before, tree(orgA().when().delete("/squad/" + squad).then().statusCode(200)));
        orgA().when().get("/squad/" + squad).then().statusCode(404)
                .body("message", equalTo("Squad not found"))
                .body("error", equalTo("Not Found"))
                .body("statusCode", equalTo(404));
        orgA().when().delete("/squad/" + squad).then().statusCode(404);
        orgA().body("{}").when().patch("/squad/" + squad).then().statusCode(404);
        for (String id : new String[] {newId(), "squad-1"}) {
            orgA().when().get("/squad/" + id).then().statusCode(404).body("message", equalTo("Squad not found"));
            orgA().when().delete("/squad/" + id).then().statusCode(404);
        }
    }

    @Test
    void concurrentDeletesOfOneSquadGiveOne200AndOtherwise404() throws Exception {
        for (int round = 0; round < 10; round++) {
            String squadId = Clients.createSquad(orgA(), createAssistant(orgA()));
            List<Integer> statuses = Race.statuses(4,
                    () -> orgA().when().delete("/squad/" + squadId).then().extract().statusCode());
            assertEquals(1, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
            assertEquals(3, statuses.stream().filter(status -> status == 404).count(), statuses.toString());
        }
    }

    @Test
    void patchReplacesTheMembersAndKeepsCreatedAt() {
        String first = createAssistant(orgA());
        String second = createAssistant(orgA());
        JsonNode created = tree(orgA().body("{\"members\":[{\"assistantId\":\"" + first + "\"}]}").when().post("/squad")
                .then().statusCode(201));
        String id = created.get("id").asText();
        String members = "{\"members\":[{\"assistantId\":\"" + second + "\"},{\"assistant\":{\"name\":\"inline\"}}]}";
        JsonNode patched = tree(orgA().body(members).when().patch("/squad/" + id).then().statusCode(200));
        assertEquals(tree(members), written(patched));
        assertEquals(created.get("createdAt"), patched.get("createdAt"));
        assertTrue(Instant.parse(patched.get("updatedAt").asText()).isAfter(Instant.parse(created.get("updatedAt").asText())));
        JsonNode empty = tree(orgA().body("{}").when().patch("/squad/" + id).then().statusCode(200));
        assertEquals(written(patched), written(empty));
        assertEquals(empty, tree(orgA().when().get("/squad/" + id).then().statusCode(200)));
    }

    @Test
    void aRejectedPatchChangesNothing() {
        String member = createAssistant(orgA());
        String id = Clients.createSquad(orgA(), member);
        JsonNode before = tree(orgA().when().get("/squad/" + id).then().statusCode(200));
        orgA().body("{\"members\":null}").when().patch("/squad/" + id).then().statusCode(400)
                .body("message", org.hamcrest.Matchers.contains("members should not be null or undefined"));
        orgA().body("{\"members\":[]}").when().patch("/squad/" + id).then().statusCode(400)
                .body("message", org.hamcrest.Matchers.contains("members must contain at least 1 elements"));
        String unknown = newId();
        orgA().body("{\"members\":[{\"assistantId\":\"" + unknown + "\"}]}").when().patch("/squad/" + id).then().statusCode(400)
                .body("message", org.hamcrest.Matchers.contains("members.0.assistantId refers to an unknown assistant: " + unknown));
        orgA().body("{\"members\":[{\"assistant\":{\"maxDurationSeconds\":5}}]}").when().patch("/squad/" + id)
                .then().statusCode(400)
                .body("message", org.hamcrest.Matchers.contains("members.0.assistant.maxDurationSeconds must not be less than 10"));
        orgA().body("{\"membersOverrides\":{}}").when().patch("/squad/" + id).then().statusCode(400)
                .body("message", org.hamcrest.Matchers.contains("property membersOverrides should not exist"));
        orgA().body("[]").when().patch("/squad/" + id).then().statusCode(400);
        assertEquals(before, tree(orgA().when().get("/squad/" + id).then().statusCode(200)));
    }

    @Test
    void withoutAValidKeyNothingIsServed() {
        given().when().get("/squad").then().statusCode(401).body("statusCode", equalTo(401));
        given().contentType("application/json").body("{\"members\":[{\"assistant\":{}}]}").when().post("/squad")
                .then().statusCode(401);
    }

    @Test
    void listedSquadsAreTheSameAsFetched() {
        String assistant = createAssistant(orgA());
        ObjectNode created = (ObjectNode) tree(orgA().body(fullSquad(assistant)).when().post("/squad").then().statusCode(201));
        JsonNode listed = tree(orgA().queryParam("createdAtGe", created.get("createdAt").asText()).queryParam("limit", 1000)
                .when().get("/squad").then().statusCode(200));
        boolean found = false;
        for (JsonNode squad : listed) {
            if (squad.get("id").equals(created.get("id"))) {
                assertEquals(created, squad);
                found = true;
            }
        }
        assertTrue(found);
    }
}
