package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An inline {@code phoneNumber} on call creation (the era's import body): frozen with its secrets sealed, never
 * shown, dialled (and hung up) through telephony-service's inline routes with the secrets in clear over the
 * internal hop (docs/calls.md "Inline phone number"; call-contracts.md, dial-inline).
 */
@QuarkusTest
class InlinePhoneNumberTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    /** Inline dials answer with a carrier call id derived from the call id, so parallel stubs never collide. */
    private void stubInlineDial(String provider) {
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/dial-inline"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withTransformers("response-template")
                        .withBody("{\"callId\":\"{{jsonPath request.body '$.callId'}}\",\"phoneCallProvider\":\""
                                + provider + "\",\"phoneCallProviderId\":\"CX-{{jsonPath request.body '$.callId'}}\","
                                + "\"phoneCallProviderDetails\":{\"to\":\"+14155550123\"}}")));
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/hangup-inline")).willReturn(okJson("{\"ended\":true}")));
    }

    @Test
    void aTwilioInlineNumberIsDialledThroughTelephonyAndItsSecretsAreSealedAndNeverShown() throws Exception {
        stubInlineDial("twilio");
        String token = "auth-token-" + newId();
        String webhookSecret = "hook-secret-" + newId();
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumber\":{"
                        + "\"twilioPhoneNumber\":\"+14155550100\",\"twilioAccountSid\":\"AC123\",\"twilioAuthToken\":\"" + token
                        + "\",\"name\":\"pop-up line\",\"serverUrl\":\"https://hooks.example.com/vapi\",\"serverUrlSecret\":\""
                        + webhookSecret + "\"},\"customer\":{\"number\":\"+14155550123\"}}")
                .when().post("/call").then().statusCode(201)
                .body("type", equalTo("outboundPhoneCall"))
                .body("status", equalTo("queued"))
                .body("phoneCallProvider", equalTo("twilio"))
                .body("phoneNumberId", nullValue())
                .body("phoneNumber.provider", equalTo("twilio"))
                .body("phoneNumber.number", equalTo("+14155550100"))
                .body("phoneNumber.twilioAccountSid", equalTo("AC123"))
                .body("phoneNumber.name", equalTo("pop-up line"))
                .body("phoneNumber", not(hasKey("twilioAuthToken")))
                .body("phoneNumber", not(hasKey("serverUrlSecret")))
                .extract().path("id");
        orgA().when().get("/call/" + id).then().statusCode(200)
                .body("phoneCallProviderId", equalTo("CX-" + id))
                .body("phoneNumber.number", equalTo("+14155550100"))
                .body("phoneNumber", not(hasKey("twilioAuthToken")));
        String shown = orgA().when().get("/call?id=" + id).then().statusCode(200).extract().asString();
        assertFalse(shown.contains(token) || shown.contains(webhookSecret), shown);

        // Over the internal hop the carrier secret travels in clear, normalised to provider + number.
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/dial-inline"))
                .withRequestBody(matchingJsonPath("$.callId", WireMock.equalTo(id)))
                .withRequestBody(matchingJsonPath("$.customer.number", WireMock.equalTo("+14155550123")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.provider", WireMock.equalTo("twilio")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.number", WireMock.equalTo("+14155550100")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.twilioAccountSid", WireMock.equalTo("AC123")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.twilioAuthToken", WireMock.equalTo(token))));

        // At rest: sealed in the documents, absent from the row and from every server message.
        String stored = Outboxes.column(dataSource, "select configuration::text from call.call_documents where call_id = ?::uuid", id)
                .getFirst();
        assertTrue(stored.contains("inlinePhoneNumber"), stored);
        assertFalse(stored.contains(token) || stored.contains(webhookSecret), stored);
        assertTrue(stored.contains("sealed:v1:"), stored);
        String row = Outboxes.column(dataSource, "select details::text from call.calls where id = ?::uuid", id).getFirst();
        assertFalse(row.contains(token) || row.contains(webhookSecret), row);
        String statusUpdate = Outboxes.payloads(dataSource, id, "status-update").getFirst();
        assertTrue(statusUpdate.contains("+14155550100"), statusUpdate);
        assertFalse(statusUpdate.contains(token) || statusUpdate.contains(webhookSecret), statusUpdate);

        // Ending it hangs the carrier call up through the inline route (there is no phoneNumberId to address).
        orgA().when().post("/call/" + id + "/end").then().statusCode(200).body("endedReason", equalTo("manually-canceled"));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/hangup-inline"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo("CX-" + id)))
                .withRequestBody(matchingJsonPath("$.phoneNumber.twilioAuthToken", WireMock.equalTo(token))));
    }

    @Test
    void aVonageInlineNumberNeedsOneOfTheOrganisationsVonageCredentials() throws Exception {
        stubInlineDial("vonage");
        String credentialId = newId();
        wireMock.stubFor(WireMock.get(urlEqualTo("/internal/credential/" + credentialId))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .willReturn(okJson("{\"id\":\"" + credentialId + "\",\"provider\":\"vonage\"}")));
        String openAiCredential = newId();
        wireMock.stubFor(WireMock.get(urlEqualTo("/internal/credential/" + openAiCredential))
                .willReturn(okJson("{\"id\":\"" + openAiCredential + "\",\"provider\":\"openai\"}")));
        String unknown = newId();
        wireMock.stubFor(WireMock.get(urlEqualTo("/internal/credential/" + unknown)).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"Credential not found\",\"error\":\"Not Found\",\"statusCode\":404}")));

        String id = orgA().body(vonage(credentialId)).when().post("/call/phone").then().statusCode(201)
                .body("phoneCallProvider", equalTo("vonage"))
                .body("phoneNumber.provider", equalTo("vonage"))
                .body("phoneNumber.credentialId", equalTo(credentialId))
                .extract().path("id");
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/dial-inline"))
                .withRequestBody(matchingJsonPath("$.callId", WireMock.equalTo(id)))
                .withRequestBody(matchingJsonPath("$.phoneNumber.provider", WireMock.equalTo("vonage")))
                .withRequestBody(matchingJsonPath("$.phoneNumber.credentialId", WireMock.equalTo(credentialId))));

        long before = count();
        orgA().body(vonage(unknown)).when().post("/call/phone").then().statusCode(400)
                .body("message", hasItem("phoneNumber.credentialId " + unknown + " does not exist"));
        orgA().body(vonage(openAiCredential)).when().post("/call/phone").then().statusCode(400)
                .body("message", hasItem("phoneNumber.credentialId " + openAiCredential + " is not a vonage credential"));
        assertEquals(before, count(), "nothing is written for a refused inline number");
    }

    private static String vonage(String credentialId) {
        return "{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumber\":{\"vonagePhoneNumber\":\"+14155550101\","
                + "\"credentialId\":\"" + credentialId + "\"},\"customer\":{\"number\":\"+14155550123\"}}";
    }

    private long count() throws Exception {
        return Long.parseLong(Outboxes.column(dataSource, "select count(*) from call.calls where org_id = ?", TestKeys.ORG_A)
                .getFirst());
    }

    @Test
    void anInlineNumberIsValidatedAsTheImportBodyIs() throws Exception {
        String sid = "AC-" + newId(); // this test's own, so no other test's dial is counted below
        String assistant = "{\"assistant\":" + CallCreationTest.INLINE + ",\"customer\":{\"number\":\"+14155550123\"},";
        List<String[]> cases = List.of(
                new String[] {"\"phoneNumber\":{\"twilioPhoneNumber\":\"0800\",\"twilioAccountSid\":\"" + sid + "\",\"twilioAuthToken\":\"t\"}",
                        "phoneNumber.twilioPhoneNumber must be a valid phone number in the E.164 format"},
                new String[] {"\"phoneNumber\":{\"provider\":\"twilio\",\"number\":\"+14155550100\",\"twilioAccountSid\":\"" + sid + "\"}",
                        "phoneNumber.twilioAuthToken should not be empty"},
                new String[] {"\"phoneNumber\":{\"provider\":\"sip\",\"number\":\"+14155550100\"}",
                        "phoneNumber.provider must be one of the following values: carrierA, carrierB, twilio, vonage"},
                new String[] {"\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550100\",\"twilioAccountSid\":\"" + sid + "\","
                        + "\"twilioAuthToken\":\"t\",\"credentialId\":\"c\"}", "property phoneNumber.credentialId should not exist"},
                new String[] {"\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550100\",\"twilioAccountSid\":\"" + sid + "\","
                        + "\"twilioAuthToken\":\"t\",\"serverUrlSecret\":\"s\"}", "phoneNumber.serverUrlSecret needs a serverUrl"},
                new String[] {"\"phoneNumberId\":\"" + newId() + "\",\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550100\","
                        + "\"twilioAccountSid\":\"" + sid + "\",\"twilioAuthToken\":\"t\"}",
                        "Need Either `phoneNumber` Or `phoneNumberId`, not both."});
        long before = count();
        for (String[] bad : cases) {
            orgA().body(assistant + bad[0] + "}").when().post("/call/phone").then().statusCode(400)
                    .body("statusCode", equalTo(400))
                    .body("message", hasItem(bad[1]));
        }
        // Unknown properties inside it are refused like everywhere else.
        orgA().body(assistant + "\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550100\",\"twilioAccountSid\":\"" + sid + "\","
                + "\"twilioAuthToken\":\"t\",\"fax\":true}}").when().post("/call/phone").then().statusCode(400);
        // A web call has no number.
        orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550100\","
                + "\"twilioAccountSid\":\"" + sid + "\",\"twilioAuthToken\":\"t\"}}").when().post("/call/web").then().statusCode(400)
                .body("message", hasItem("property phoneNumber should not exist"));
        assertEquals(before, count());
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/phone-number/dial-inline"))
                .withRequestBody(matchingJsonPath("$.phoneNumber.twilioAccountSid", WireMock.equalTo(sid))));
    }

    @Test
    void anUnreachableTelephonyOrCredentialServiceIsA503AndNothingIsWritten() throws Exception {
        String numberId = newId();
        wireMock.stubFor(WireMock.get(urlEqualTo("/internal/phone-number/" + numberId))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        String credentialId = newId();
        wireMock.stubFor(WireMock.get(urlEqualTo("/internal/credential/" + credentialId))
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        long before = count();
        orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                        + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone").then()
                .statusCode(503).body("error", equalTo("Service Unavailable"))
                .body("message", org.hamcrest.Matchers.startsWith("telephony-service is unavailable"));
        orgA().body(vonage(credentialId)).when().post("/call/phone").then()
                .statusCode(503).body("error", equalTo("Service Unavailable"))
                .body("message", org.hamcrest.Matchers.startsWith("credential-service is unavailable"));
        assertEquals(before, count());
    }
}
