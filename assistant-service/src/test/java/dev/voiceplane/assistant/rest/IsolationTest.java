package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.assistant.rest.Clients.createSquad;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Two organisations never see, change, delete or reference each other's assistants and squads. */
@QuarkusTest
class IsolationTest {

    @Test
    void assistantsOfAnotherOrganisationDoNotExist() {
        String id = createAssistant(orgA(), "{\"name\":\"A's assistant\",\"serverUrlSecret\":\"a-secret\"}");
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));

        orgB().when().get("/assistant/" + id).then().statusCode(404).body("message", equalTo("Assistant not found"));
        orgB().body("{\"name\":\"taken over\"}").when().patch("/assistant/" + id).then().statusCode(404)
                .body("message", equalTo("Assistant not found"));
        orgB().body("{\"bogus\":1}").when().patch("/assistant/" + id).then().statusCode(404);
        orgB().when().delete("/assistant/" + id).then().statusCode(404);
        orgB().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200)
                .body("id", not(hasItem(id)))
                .body("orgId", everyItem(equalTo(TestKeys.ORG_B)));
        orgA().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200)
                .body("orgId", everyItem(equalTo(TestKeys.ORG_A)));

        assertEquals(before, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)));
    }

    @Test
    void squadsOfAnotherOrganisationDoNotExist() {
        String assistant = createAssistant(orgA());
        String squad = createSquad(orgA(), assistant);
        JsonNode before = tree(orgA().when().get("/squad/" + squad).then().statusCode(200));
        String own = createAssistant(orgB());

        orgB().when().get("/squad/" + squad).then().statusCode(404).body("message", equalTo("Squad not found"));
        orgB().body("{\"members\":[{\"assistantId\":\"" + own + "\"}]}").when().patch("/squad/" + squad).then().statusCode(404);
        orgB().when().delete("/squad/" + squad).then().statusCode(404);
        orgB().queryParam("limit", 1000).when().get("/squad").then().statusCode(200)
                .body("id", not(hasItem(squad)))
                .body("orgId", everyItem(equalTo(TestKeys.ORG_B)));

        assertEquals(before, tree(orgA().when().get("/squad/" + squad).then().statusCode(200)));
    }

    @Test
    void aSquadCannotNameAnotherOrganisationsAssistant() {
        String ofA = createAssistant(orgA());
        orgB().body("{\"members\":[{\"assistantId\":\"" + ofA + "\"}]}").when().post("/squad").then().statusCode(400)
                .body("message", contains("members.0.assistantId refers to an unknown assistant: " + ofA));
        String squadOfB = createSquad(orgB(), createAssistant(orgB()));
        orgB().body("{\"members\":[{\"assistantId\":\"" + ofA + "\"}]}").when().patch("/squad/" + squadOfB)
                .then().statusCode(400);
        // ... so B's squads never hold A's assistant back from being deleted.
        orgA().when().delete("/assistant/" + ofA).then().statusCode(200);
    }

    @Test
    void anotherOrganisationsSquadsDoNotBlockADelete() {
        String ofB = createAssistant(orgB());
        createSquad(orgB(), ofB);
        orgA().when().delete("/assistant/" + ofB).then().statusCode(404);
        orgB().when().delete("/assistant/" + ofB).then().statusCode(409);
    }

    @Test
    void internalRoutesAreScopedToTheOrganisationHeader() {
        String id = createAssistant(orgA());
        String squad = createSquad(orgA(), id);
        internal(TestKeys.ORG_B).when().get("/internal/assistant/" + id).then().statusCode(404);
        internal(TestKeys.ORG_B).when().get("/internal/squad/" + squad).then().statusCode(404);
        internal(TestKeys.ORG_B).body("{\"ids\":[\"" + id + "\"]}").when().post("/internal/assistant/lookup")
                .then().statusCode(200).body("found", empty());
        internal(TestKeys.ORG_A).body("{\"ids\":[\"" + id + "\"]}").when().post("/internal/assistant/lookup")
                .then().statusCode(200).body("found", contains(id));
    }
}
