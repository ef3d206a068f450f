package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.credential.rest.Clients.openai;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceplane.kit.testing.TestClients;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class CredentialValidationTest {

    @Test
    void providerMustBeKnown() {
        orgA().body("{\"provider\":\"acme-ai\",\"apiKey\":\"k\"}").when().post("/credential")
                .then().statusCode(400)
                .body("error", equalTo("Bad Request"))
                .body("message[0]", startsWith("provider must be one of the following values: 11labs, anthropic"));
        orgA().body("{\"apiKey\":\"k\"}").when().post("/credential")
                .then().statusCode(400).body("message[0]", startsWith("provider must be one of"));
    }

    @Test
    void eachProviderTakesItsOwnSecretFields() {
        orgA().body("{\"provider\":\"openai\"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("apiKey should not be empty"));
        orgA().body("{\"provider\":\"twilio\",\"apiKey\":\"k\"}").when().post("/credential")
                .then().statusCode(400).body("message", containsInAnyOrder(
                        "property apiKey should not exist", "accountSid should not be empty", "authToken should not be empty"));
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"k\"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("apiSecret should not be empty"));
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\",\"authToken\":\"t\"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("property authToken should not exist"));
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"   \"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("apiKey should not be empty"));
        orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC1\",\"authToken\":\"t\"}").when().post("/credential")
                .then().statusCode(201);
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"k\",\"apiSecret\":\"s\"}").when().post("/credential")
                .then().statusCode(201);
        // The signature secret is vonage's own and optional, but never empty when given.
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"k\",\"apiSecret\":\"s\",\"signatureSecret\":\"sig\"}")
                .when().post("/credential").then().statusCode(201);
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"k\",\"apiSecret\":\"s\",\"signatureSecret\":\" \"}")
                .when().post("/credential").then().statusCode(400).body("message", contains("signatureSecret should not be empty"));
        orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC1\",\"authToken\":\"t\",\"signatureSecret\":\"sig\"}")
                .when().post("/credential").then().statusCode(400)
                .body("message", contains("property signatureSecret should not exist"));
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\",\"signatureSecret\":\"sig\"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("property signatureSecret should not exist"));
    }

    @Test
    void unknownPropertiesWrongTypesAndLimitsAre400() {
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\",\"region\":\"eu\"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("property region should not exist"));
        orgA().body("{\"provider\":\"openai\",\"apiKey\":12345}").when().post("/credential")
                .then().statusCode(400).body("message", contains("apiKey must be a string"));
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\",\"name\":\"" + "n".repeat(41) + "\"}").when().post("/credential")
                .then().statusCode(400).body("message", contains("name must be shorter than or equal to 40 characters"));
        orgA().body("not json").when().post("/credential")
                .then().statusCode(400).body("statusCode", equalTo(400));
        orgA().when().post("/credential")
                .then().statusCode(400).body("message", contains("request body must be a JSON object"));
    }

    @Test
    void putNeedsAUuid() {
        orgA().body(openai("k")).when().put("/credential/my-key")
                .then().statusCode(400).body("message", contains("id must be a UUID"));
    }

    @Test
    void aRejectedReplaceChangesNothing() {
        String id = newId();
        String createdAt = orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\",\"name\":\"keep me\"}")
                .when().put("/credential/" + id).then().statusCode(200).extract().path("updatedAt");
        orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC1\"}").when().put("/credential/" + id)
                .then().statusCode(400);
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\",\"bogus\":1}").when().put("/credential/" + id)
                .then().statusCode(400);
        orgA().when().get("/credential/" + id).then().statusCode(200)
                .body("provider", equalTo("openai"))
                .body("name", equalTo("keep me"))
                .body("updatedAt", equalTo(createdAt));
        TestClients.internal("org-a").when().get("/internal/credential/" + id + "/secret")
                .then().statusCode(200).body("apiKey", equalTo("k"));
    }
}
