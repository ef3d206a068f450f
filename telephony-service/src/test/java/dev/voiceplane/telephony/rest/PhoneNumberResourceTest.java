package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Reading, changing and deleting numbers; validation; isolation between organisations. */
@QuarkusTest
class PhoneNumberResourceTest {

    @InjectWireMock
    WireMockServer wm;

    @Test
    void aNumberIsReadListedPatchedAndDeleted() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA(), "\"name\":\"Before\"");
        orgA().when().get("/phone-number/" + number.id()).then().statusCode(200)
                .body("name", equalTo("Before")).body("$", not(hasKey("twilioAuthToken")));
        orgA().when().get("/phone-number?limit=1000").then().statusCode(200).body("id", hasItem(number.id()));

        String assistant = newId();
        Stubs.assistantLookup(wm, TestKeys.ORG_A, assistant, true);
        orgA().body("{\"name\":\"After\",\"assistantId\":\"" + assistant + "\",\"serverUrl\":\"https://h.example.com/\","
                        + "\"serverUrlSecret\":\"k\"}")
                .when().patch("/phone-number/" + number.id()).then().statusCode(200)
                .body("name", equalTo("After")).body("assistantId", equalTo(assistant))
                .body("$", not(hasKey("serverUrlSecret"))).body("number", equalTo(number.number()));
        // Write-only, not lost: call-service reads it over the internal route.
        dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A).when().get("/internal/phone-number/" + number.id())
                .then().statusCode(200).body("serverUrlSecret", equalTo("k"));
        orgA().body("{\"name\":null,\"assistantId\":null}").when().patch("/phone-number/" + number.id())
                .then().statusCode(200).body("$", not(hasKey("name"))).body("$", not(hasKey("assistantId")))
                .body("serverUrl", equalTo("https://h.example.com/"));

        orgA().when().delete("/phone-number/" + number.id()).then().statusCode(200).body("id", equalTo(number.id()));
        orgA().when().get("/phone-number/" + number.id()).then().statusCode(404)
                .body("message", equalTo("Phone number not found"));
        // Releasing restored the number's previous (empty) webhooks on Twilio.
        wm.verify(postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/IncomingPhoneNumbers/"
                + number.numberSid() + ".json")).withFormParam("VoiceUrl", WireMock.equalTo("")));
    }

    @Test
    void anotherOrganisationsNumberIsA404Everywhere() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        orgB().when().get("/phone-number/" + number.id()).then().statusCode(404);
        orgB().body("{\"name\":\"x\"}").when().patch("/phone-number/" + number.id()).then().statusCode(404);
        orgB().when().delete("/phone-number/" + number.id()).then().statusCode(404);
        orgB().when().get("/phone-number?limit=1000").then().statusCode(200).body("id", not(hasItem(number.id())));
        orgA().when().get("/phone-number/" + number.id()).then().statusCode(200);
        orgA().when().get("/phone-number/not-a-uuid").then().statusCode(404);
    }

    @Test
    void badBodiesAre400sNamingEveryProblem() {
        orgA().body("{\"twilioPhoneNumber\":\"14155550100\",\"name\":\"" + "n".repeat(41) + "\",\"serverUrl\":\"ftp://x\"}")
                .when().post("/phone-number/import/twilio").then().statusCode(400)
                .body("message", containsInAnyOrder("name must be shorter than or equal to 40 characters",
                        "serverUrl must be a URL address"));
        orgA().body("{\"twilioPhoneNumber\":\"14155550100\"}").when().post("/phone-number/import/twilio")
                .then().statusCode(400)
                .body("message", contains(
                        "twilioPhoneNumber must be a valid phone number in the E.164 format",
                        "twilioAccountSid should not be empty", "twilioAuthToken should not be empty"));
        orgA().body("{\"vonagePhoneNumber\":\"+441234567890\",\"credentialId\":\"c\",\"twilioAuthToken\":\"t\",\"stripeSubscriptionId\":\"s\"}")
                .when().post("/phone-number/import/vonage").then().statusCode(400)
                .body("message", contains("property stripeSubscriptionId should not exist"));
        orgA().body("{\"vonagePhoneNumber\":\"+441234567890\",\"credentialId\":\"c\",\"twilioAuthToken\":\"t\"}")
                .when().post("/phone-number/import/vonage").then().statusCode(400)
                .body("message", contains("property twilioAuthToken should not exist"));
        orgA().body("{\"provider\":\"sinch\",\"number\":\"+14155550100\"}").when().post("/phone-number")
                .then().statusCode(400)
                .body("message", contains("provider must be one of the following values: carrierA, carrierB, twilio, vonage"));
        orgA().body("{\"twilioPhoneNumber\":\"+1234567\",\"twilioAccountSid\":\"a\",\"twilioAuthToken\":\"t\"}")
                .when().post("/phone-number/import/twilio").then().statusCode(400)
                .body("message", contains("twilioPhoneNumber must be a valid phone number in the E.164 format"));
        orgA().body("[]").when().post("/phone-number/import/twilio").then().statusCode(400);
        orgA().body("").when().post("/phone-number/import/twilio").then().statusCode(400);
        orgA().body("{}").when().post("/phone-number/import/sinch").then().statusCode(404);
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        orgA().body("{\"number\":\"+14155550100\",\"twilioAuthToken\":\"t\"}").when().patch("/phone-number/" + number.id())
                .then().statusCode(400)
                .body("message", containsInAnyOrder("property number should not exist", "property twilioAuthToken should not exist"));
        orgA().body("{\"serverUrl\":null}").when().patch("/phone-number/" + number.id()).then().statusCode(200);
        orgA().body("{\"serverUrlSecret\":\"s\"}").when().patch("/phone-number/" + number.id()).then().statusCode(400)
                .body("message", contains("serverUrlSecret needs a serverUrl"));
        orgA().when().get("/phone-number?limit=1001").then().statusCode(400);
    }

    @Test
    void withoutAnApiKeyNothingIsAnswered() {
        io.restassured.RestAssured.given().when().get("/phone-number").then().statusCode(401);
        io.restassured.RestAssured.given().header("Authorization", "Bearer " + TestKeys.INTERNAL_TOKEN)
                .when().get("/phone-number").then().statusCode(401);
    }

    @Test
    void anAssistantOfAnotherOrganisationCannotBePatchedIn() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String assistant = newId();
        Stubs.assistantLookup(wm, TestKeys.ORG_A, assistant, false);
        orgA().body("{\"assistantId\":\"" + assistant + "\"}").when().patch("/phone-number/" + number.id())
                .then().statusCode(400)
                .body("message", contains("assistantId " + assistant + " is not an assistant of this organisation"));
        orgA().body("{\"assistantId\":\"not-an-id\"}").when().patch("/phone-number/" + number.id())
                .then().statusCode(400);
        orgA().when().get("/phone-number/" + number.id()).then().statusCode(200).body("$", not(hasKey("assistantId")));
    }
}
