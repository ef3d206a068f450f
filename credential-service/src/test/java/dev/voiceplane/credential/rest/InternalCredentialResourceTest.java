package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

@QuarkusTest
class InternalCredentialResourceTest {

    @Test
    void otherServicesCheckExistenceAndProvider() {
        String id = newId();
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"vk\",\"apiSecret\":\"vs\"}").when().put("/credential/" + id)
                .then().statusCode(200);
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id)
                .then().statusCode(200)
                .body("id", equalTo(id))
                .body("provider", equalTo("vonage"))
                .body("$", not(Matchers.hasKey("apiKey")));
        internal(TestKeys.ORG_B).when().get("/internal/credential/" + id).then().statusCode(404);
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + newId()).then().statusCode(404);
    }

    @Test
    void theSecretIsGivenOnlyToServicesOfTheSameOrganisation() {
        String id = newId();
        orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC9\",\"authToken\":\"tw-secret\"}")
                .when().put("/credential/" + id).then().statusCode(200);
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret")
                .then().statusCode(200)
                .body("provider", equalTo("twilio"))
                .body("accountSid", equalTo("AC9"))
                .body("authToken", equalTo("tw-secret"))
                .body("$", not(Matchers.hasKey("apiKey")));
        internal(TestKeys.ORG_B).when().get("/internal/credential/" + id + "/secret").then().statusCode(404);
        orgA().when().get("/internal/credential/" + id + "/secret").then().statusCode(401);
        given().header("Authorization", "Bearer wrong").header("X-Voice-Org-Id", TestKeys.ORG_A)
                .when().get("/internal/credential/" + id + "/secret").then().statusCode(401);
    }

    @Test
    void aVonageSignatureSecretIsGivenWithTheOtherSecretsAndSurvivesAReplace() {
        String id = newId();
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"vk\",\"apiSecret\":\"vs\",\"signatureSecret\":\"vsig\"}")
                .when().put("/credential/" + id).then().statusCode(200).body("$", not(Matchers.hasKey("signatureSecret")));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret")
                .then().statusCode(200)
                .body("provider", equalTo("vonage"))
                .body("apiKey", equalTo("vk"))
                .body("apiSecret", equalTo("vs"))
                .body("signatureSecret", equalTo("vsig"));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id)
                .then().statusCode(200).body("$", not(Matchers.hasKey("signatureSecret")));
        // A replace without it drops it: PUT replaces the whole credential.
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"vk\",\"apiSecret\":\"vs2\"}")
                .when().put("/credential/" + id).then().statusCode(200);
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret")
                .then().statusCode(200).body("apiSecret", equalTo("vs2")).body("signatureSecret", Matchers.nullValue());
    }
}
