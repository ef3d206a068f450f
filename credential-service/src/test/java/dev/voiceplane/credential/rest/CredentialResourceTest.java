package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.credential.rest.Clients.openai;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.Race;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
class CredentialResourceTest {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    @Test
    void putCreatesTheCredentialWithThatId() {
        String id = newId();
        orgA().body(openai("sk-create-1")).when().put("/credential/" + id)
                .then().statusCode(200)
                .body("id", equalTo(id))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("provider", equalTo("openai"))
                .body("createdAt", matchesPattern(TIMESTAMP))
                .body("updatedAt", matchesPattern(TIMESTAMP))
                .body("$", not(org.hamcrest.Matchers.hasKey("apiKey")));
        orgA().when().get("/credential/" + id).then().statusCode(200).body("provider", equalTo("openai"));
    }

    @Test
    void putReplacesButKeepsCreatedAt() {
        String id = newId();
        JsonPath first = orgA().body(openai("sk-v1")).when().put("/credential/" + id)
                .then().statusCode(200).extract().jsonPath();
        JsonPath second = orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC123\",\"authToken\":\"tok\",\"name\":\"main line\"}")
                .when().put("/credential/" + id)
                .then().statusCode(200)
                .body("provider", equalTo("twilio"))
                .body("accountSid", equalTo("AC123"))
                .body("name", equalTo("main line"))
                .extract().jsonPath();
        assertEquals(first.getString("createdAt"), second.getString("createdAt"));
        assertTrue(Instant.parse(second.getString("updatedAt")).isAfter(Instant.parse(first.getString("updatedAt"))));
        orgA().when().get("/credential/" + id).then().statusCode(200)
                .body("provider", equalTo("twilio"))
                .body("createdAt", equalTo(first.getString("createdAt")));
        // A replace is a replace: fields not sent again are gone.
        orgA().body(openai("sk-v3")).when().put("/credential/" + id)
                .then().statusCode(200)
                .body("$", not(org.hamcrest.Matchers.hasKey("accountSid")))
                .body("$", not(org.hamcrest.Matchers.hasKey("name")));
    }

    @Test
    void postCreatesWithANewId() {
        String id = orgA().body("{\"provider\":\"deepgram\",\"apiKey\":\"dg-1\"}").when().post("/credential")
                .then().statusCode(201)
                .body("id", matchesPattern("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}"))
                .body("provider", equalTo("deepgram"))
                .extract().path("id");
        orgA().when().get("/credential/" + id).then().statusCode(200).body("id", equalTo(id));
    }

    @Test
    void deleteReturnsTheDeletedCredentialThenItIsGone() {
        String id = newId();
        orgA().body(openai("sk-gone")).when().put("/credential/" + id).then().statusCode(200);
        orgA().when().delete("/credential/" + id)
                .then().statusCode(200)
                .body("id", equalTo(id))
                .body("provider", equalTo("openai"))
                .body("$", not(org.hamcrest.Matchers.hasKey("apiKey")));
        orgA().when().get("/credential/" + id).then().statusCode(404)
                .body("statusCode", equalTo(404)).body("message", equalTo("Credential not found"));
        orgA().when().delete("/credential/" + id).then().statusCode(404);
    }

    @Test
    void concurrentDeletesGiveOne200AndOtherwise404() throws Exception {
        for (int round = 0; round < 10; round++) {
            String id = newId();
            orgA().body(openai("sk-race")).when().put("/credential/" + id).then().statusCode(200);
            List<Integer> statuses = Race.statuses(4,
                    () -> orgA().when().delete("/credential/" + id).then().extract().statusCode());
            assertEquals(1, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
            assertEquals(3, statuses.stream().filter(status -> status == 404).count(), statuses.toString());
        }
    }

    @Test
    void concurrentPutsAndDeletesOfOneIdNeverFail() throws Exception {
        String id = newId();
        List<Integer> statuses = Race.statuses(6, () -> Math.random() < 0.5
                ? orgA().body(openai("sk-race")).when().put("/credential/" + id).then().extract().statusCode()
                : orgA().when().delete("/credential/" + id).then().extract().statusCode());
        assertTrue(statuses.stream().allMatch(status -> status == 200 || status == 404), statuses.toString());
    }

    @Test
    void unknownOrMalformedIdsAreNotFound() {
        orgA().when().get("/credential/" + newId()).then().statusCode(404).body("error", equalTo("Not Found"));
        orgA().when().get("/credential/not-a-uuid").then().statusCode(404);
        orgA().when().delete("/credential/not-a-uuid").then().statusCode(404);
    }

    @Test
    void listIsNewestFirstAndTakesTheListParameters() {
        // Org C is used by this test alone, so the list holds exactly what it created.
        List<String> created = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            created.add(TestClients.as(TestKeys.KEY_C).body(openai("sk-list-" + i)).when().post("/credential")
                    .then().statusCode(201).extract().path("id"));
        }
        List<String> listed = TestClients.as(TestKeys.KEY_C).when().get("/credential")
                .then().statusCode(200).extract().jsonPath().getList("id");
        assertEquals(List.of(created.get(2), created.get(1), created.get(0)), listed.subList(0, 3));
        TestClients.as(TestKeys.KEY_C).queryParam("limit", 1).when().get("/credential")
                .then().statusCode(200).body("id", contains(created.get(2)));
        String middle = TestClients.as(TestKeys.KEY_C).when().get("/credential/" + created.get(1))
                .then().extract().path("createdAt");
        TestClients.as(TestKeys.KEY_C).queryParam("createdAtLt", middle).queryParam("limit", 1000).when().get("/credential")
                .then().statusCode(200).body("id", hasItem(created.get(0))).body("id", not(hasItem(created.get(1))));
        TestClients.as(TestKeys.KEY_C).queryParam("limit", 5000).when().get("/credential").then().statusCode(400)
                .body("message", contains("limit must not be greater than 1000"));
    }

    @Test
    void neutralProviderWordsAreAcceptedAndEchoedAsSent() {
        orgA().body("{\"provider\":\"carrierB\",\"apiKey\":\"k\",\"apiSecret\":\"s\"}").when().put("/credential/" + newId())
                .then().statusCode(200).body("provider", equalTo("carrierB"));
        orgA().body("{\"provider\":\"llmB\",\"apiKey\":\"k\"}").when().post("/credential")
                .then().statusCode(201).body("provider", equalTo("llmB"));
    }

    @Test
    void withoutAKeyNothingIsServed() {
        given().when().get("/credential").then().statusCode(401).body("statusCode", equalTo(401));
        given().contentType("application/json").body(openai("x")).when().put("/credential/" + newId())
                .then().statusCode(401);
        orgB().when().get("/credential").then().statusCode(200);
    }
}
