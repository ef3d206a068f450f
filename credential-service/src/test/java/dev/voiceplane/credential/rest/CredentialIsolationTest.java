package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.credential.rest.Clients.openai;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasItem;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Two organisations never see, change or learn about each other's credentials, whatever ids they use. */
@QuarkusTest
class CredentialIsolationTest {

    @Test
    void anotherOrganisationCannotReadListOrDelete() {
        String id = newId();
        orgA().body(openai("sk-a-only")).when().put("/credential/" + id).then().statusCode(200);

        orgB().when().get("/credential/" + id).then().statusCode(404).body("message", equalTo("Credential not found"));
        orgB().when().delete("/credential/" + id).then().statusCode(404);
        orgB().queryParam("limit", 1000).when().get("/credential").then().statusCode(200)
                .body("id", not(hasItem(id)))
                .body("orgId", everyItem(equalTo(TestKeys.ORG_B)));
        orgA().when().get("/credential/" + id).then().statusCode(200);
    }

    @Test
    void aPutOnAnotherOrganisationsIdNeitherRevealsNorReplacesIt() {
        String id = newId();
        String createdByA = orgA().body("{\"provider\":\"openai\",\"apiKey\":\"sk-of-a\",\"name\":\"a's key\"}")
                .when().put("/credential/" + id).then().statusCode(200).extract().path("createdAt");

        // Org B's PUT of the same id behaves exactly as for an unused id: B gets a credential of its own.
        orgB().body("{\"provider\":\"anthropic\",\"apiKey\":\"sk-of-b\"}").when().put("/credential/" + id)
                .then().statusCode(200)
                .body("orgId", equalTo(TestKeys.ORG_B))
                .body("provider", equalTo("anthropic"))
                .body("$", not(org.hamcrest.Matchers.hasKey("name")));

        orgA().when().get("/credential/" + id).then().statusCode(200)
                .body("provider", equalTo("openai"))
                .body("name", equalTo("a's key"))
                .body("createdAt", equalTo(createdByA));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret").then().statusCode(200)
                .body("apiKey", equalTo("sk-of-a"));
        internal(TestKeys.ORG_B).when().get("/internal/credential/" + id + "/secret").then().statusCode(200)
                .body("apiKey", equalTo("sk-of-b"));

        // Deleting B's does not touch A's.
        orgB().when().delete("/credential/" + id).then().statusCode(200).body("orgId", equalTo(TestKeys.ORG_B));
        orgA().when().get("/credential/" + id).then().statusCode(200).body("provider", equalTo("openai"));
    }
}
