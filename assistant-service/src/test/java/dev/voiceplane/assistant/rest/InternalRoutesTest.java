package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.assistant.rest.Clients.createSquad;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** /internal/assistant and /internal/squad, for call-service and telephony-service. */
@QuarkusTest
class InternalRoutesTest {

    @Test
    void anAssistantIsReturnedAsThePublicRouteReturnsItWithItsSecretsOpened() {
        String id = createAssistant(orgA(), "{\"name\":\"Ada\",\"serverUrl\":\"https://hooks.example.com/x\","
                + "\"serverUrlSecret\":\"s\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"temperature\":0.70}}");
        com.fasterxml.jackson.databind.node.ObjectNode internalAnswer = (com.fasterxml.jackson.databind.node.ObjectNode)
                tree(internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then().statusCode(200));
        assertEquals("s", internalAnswer.path("serverUrlSecret").asText());
        internalAnswer.remove("serverUrlSecret");
        assertEquals(tree(orgA().when().get("/assistant/" + id).then().statusCode(200)), internalAnswer);
        internal(TestKeys.ORG_A).when().get("/internal/assistant/" + newId()).then().statusCode(404)
                .body("message", equalTo("Assistant not found"));
        internal(TestKeys.ORG_A).when().get("/internal/assistant/nope").then().statusCode(404);
    }

    @Test
    void aSquadIsReturnedAsThePublicRouteReturnsIt() {
        String squad = createSquad(orgA(), createAssistant(orgA()));
        assertEquals(tree(orgA().when().get("/squad/" + squad).then().statusCode(200)),
                tree(internal(TestKeys.ORG_A).when().get("/internal/squad/" + squad).then().statusCode(200)));
        internal(TestKeys.ORG_A).when().get("/internal/squad/" + newId()).then().statusCode(404)
                .body("message", equalTo("Squad not found"));
    }

    @Test
    void aLookupAnswersWhichIdsAreAssistantsInTheOrderAskedEachOnce() {
        String first = createAssistant(orgA());
        String second = createAssistant(orgA());
        String unknown = newId();
        internal(TestKeys.ORG_A)
                .body("{\"ids\":[\"" + second + "\",\"" + unknown + "\",\"not-a-uuid\",\"" + first + "\",\"" + second + "\"]}")
                .when().post("/internal/assistant/lookup")
                .then().statusCode(200).body("found", contains(second, first));
        internal(TestKeys.ORG_A).body("{\"ids\":[]}").when().post("/internal/assistant/lookup")
                .then().statusCode(200).body("found", empty());
    }

    @Test
    void aLookupIsValidated() {
        internal(TestKeys.ORG_A).body("{}").when().post("/internal/assistant/lookup").then().statusCode(400)
                .body("message", contains("ids should not be null or undefined"));
        internal(TestKeys.ORG_A).body("{\"ids\":[1]}").when().post("/internal/assistant/lookup").then().statusCode(400)
                .body("message", contains("ids.0 must be a string"));
        internal(TestKeys.ORG_A).body("{\"ids\":[],\"orgId\":\"org-b\"}").when().post("/internal/assistant/lookup")
                .then().statusCode(400).body("message", contains("property orgId should not exist"));
        String tooMany = "{\"ids\":[" + String.join(",", Collections.nCopies(1001, "\"" + newId() + "\"")) + "]}";
        internal(TestKeys.ORG_A).body(tooMany).when().post("/internal/assistant/lookup").then().statusCode(400)
                .body("message", contains("ids must contain no more than 1000 elements"));
    }

    @Test
    void onlyOtherServicesGetIn() {
        String id = createAssistant(orgA());
        // An API key is not the internal token.
        orgA().when().get("/internal/assistant/" + id).then().statusCode(401);
        orgA().body("{\"ids\":[]}").when().post("/internal/assistant/lookup").then().statusCode(401);
        given().header("Authorization", "Bearer wrong-token").header("X-Voice-Org-Id", TestKeys.ORG_A)
                .when().get("/internal/assistant/" + id).then().statusCode(401).body("statusCode", equalTo(401));
        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .when().get("/internal/assistant/" + id).then().statusCode(400)
                .body("message", equalTo("X-Voice-Org-Id header is required on internal routes"));
        // ... and the internal token is no API key.
        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN)).when().get("/assistant/" + id)
                .then().statusCode(401);
    }
}
