package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AssistantResourceTest {

    @Test
    void postCreatesAndGetReadsIt() {
        JsonNode created = tree(orgA().body("{\"name\":\"Front desk\",\"firstMessage\":\"Hello!\"}").when().post("/assistant")
                .then().statusCode(201).contentType("application/json"));
        String id = created.get("id").asText();
        orgA().when().get("/assistant/" + id).then().statusCode(200)
                .body("id", equalTo(id))
                .body("name", equalTo("Front desk"))
                .body("firstMessage", equalTo("Hello!"));
    }

    @Test
    void deleteReturnsTheDeletedAssistantAndItIsGone() {
        String id = createAssistant(orgA(), "{\"name\":\"to delete\",\"metadata\":{\"k\":[1,2]}}");
        JsonNode before = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        JsonNode deleted = tree(orgA().when().delete("/assistant/" + id).then().statusCode(200));
        assertEquals(before, deleted);
        orgA().when().get("/assistant/" + id).then().statusCode(404)
                .body("message", equalTo("Assistant not found"))
                .body("error", equalTo("Not Found"))
                .body("statusCode", equalTo(404));
        orgA().when().delete("/assistant/" + id).then().statusCode(404);
        orgA().body("{\"name\":\"x\"}").when().patch("/assistant/" + id).then().statusCode(404);
    }

    @Test
    void unknownAndMalformedIdsAre404() {
        for (String id : new String[] {newId(), "not-a-uuid", "0190b5a4"}) {
            orgA().when().get("/assistant/" + id).then().statusCode(404).body("message", equalTo("Assistant not found"));
            orgA().when().delete("/assistant/" + id).then().statusCode(404);
            orgA().body("{}").when().patch("/assistant/" + id).then().statusCode(404);
        }
    }

    @Test
    void withoutAValidKeyNothingIsServed() {
        String id = createAssistant(orgA());
        given().when().get("/assistant").then().statusCode(401).body("statusCode", equalTo(401))
                .body("error", equalTo("Unauthorized"));
        given().when().get("/assistant/" + id).then().statusCode(401);
        given().header("Authorization", "Bearer nope").contentType("application/json").body("{}")
                .when().post("/assistant").then().statusCode(401);
        given().header("Authorization", "Bearer nope").when().delete("/assistant/" + id).then().statusCode(401);
        orgA().when().get("/assistant/" + id).then().statusCode(200);
    }

    @Test
    void unsupportedMethodsAndMediaTypesAreAnsweredInTheErrorShape() {
        orgA().body("{}").when().put("/assistant/" + newId()).then().statusCode(405).body("statusCode", equalTo(405));
        orgA().contentType("text/plain").body("name=x").when().post("/assistant").then().statusCode(415)
                .body("statusCode", equalTo(415));
        orgA().body("{\"name\": ").when().post("/assistant").then().statusCode(400).body("statusCode", equalTo(400));
    }
}
