package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /internal/call/{id}/runtime/transfer}: the assistant transfers a phone call to a number. telephony-service
 * (WireMock) is asked to redirect the carrier call; the call goes {@code forwarding} with its
 * {@code forwardedPhoneNumber} and ends {@code assistant-forwarded-call}, and nobody hangs the transferred call up.
 */
@QuarkusTest
class RuntimeTransferTest {

    private static final String TO = "+14155550177";

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObjectMapper json;

    record Live(String id, String carrierCallId, String numberId) {
    }

    /** An outbound call of org A, answered (in-progress on the carrier's word). */
    Live answeredCall() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA" + newId().replace("-", "");
        Stubs.dial(wireMock, numberId, carrierCallId);
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        CarrierEventsTest.report(CarrierEventsTest.event("t1-" + id, id, carrierCallId, "status", "in-progress", null, 1L,
                null), true, true, "in-progress");
        return new Live(id, carrierCallId, numberId);
    }

    static String transfer(String number) {
        return "{\"number\":\"" + number + "\"}";
    }

    @Test
    void aTransferredCallIsForwardingThenEndedWithItsNumberAndIsNotHungUp() throws Exception {
        Live call = answeredCall();
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/" + call.numberId() + "/transfer"))
                .willReturn(okJson("{\"phoneCallProvider\":\"twilio\",\"phoneCallProviderId\":\"" + call.carrierCallId()
                        + "\",\"forwardedPhoneNumber\":\"" + TO + "\",\"transferred\":true}")));
        String path = "/internal/call/" + call.id() + "/runtime/transfer";

        internal(TestKeys.ORG_A).body(transfer(TO)).when().post(path)
                .then().statusCode(200)
                .body("status", equalTo("ended"))
                .body("endedReason", equalTo("assistant-forwarded-call"))
                .body("forwardedPhoneNumber", equalTo(TO));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/transfer"))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(equalToJson("{\"phoneCallProviderId\":\"" + call.carrierCallId() + "\",\"number\":\""
                        + TO + "\"}")));
        orgA().when().get("/call/" + call.id()).then().statusCode(200)
                .body("status", equalTo("ended"))
                .body("endedReason", equalTo("assistant-forwarded-call"))
                .body("forwardedPhoneNumber", equalTo(TO));
        List<String> statuses = Outboxes.payloads(dataSource, call.id(), "status-update").stream()
                .map(payload -> read(payload).path("message").path("status").asText()).toList();
        assertEquals(List.of("queued", "in-progress", "forwarding", "ended"), statuses);

        // A retried transfer gets the same answer without a second redirect; the runtime then reports its end.
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post(path)
                .then().statusCode(200).body("endedReason", equalTo("assistant-forwarded-call"));
        internal(TestKeys.ORG_A).body(transfer("+14155550178")).when().post(path)
                .then().statusCode(409).body("statusCode", equalTo(409));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/transfer")));
        internal(TestKeys.ORG_A).body("{\"sequence\":0,\"type\":\"ended\",\"endedReason\":\"assistant-forwarded-call\","
                        + "\"usage\":{\"sttSeconds\":12}}")
                .when().post("/internal/call/" + call.id() + "/runtime/events").then().statusCode(200);
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/hangup")));

        JsonNode report = read(Outboxes.payloads(dataSource, call.id(), "end-of-call-report").getFirst()).path("message");
        assertEquals("assistant-forwarded-call", report.path("endedReason").asText());
        assertEquals(TO, report.path("call").path("forwardedPhoneNumber").asText());
    }

    @Test
    void aRuntimeThatEndsALiveCallAsForwardedDoesNotHangItUp() {
        Live call = answeredCall();
        internal(TestKeys.ORG_A).body("{\"sequence\":0,\"type\":\"forwarding\",\"forwardedPhoneNumber\":\"" + TO + "\"}")
                .when().post("/internal/call/" + call.id() + "/runtime/events").then().statusCode(200)
                .body("status", equalTo("forwarding"));
        internal(TestKeys.ORG_A).body("{\"sequence\":1,\"type\":\"ended\",\"endedReason\":\"assistant-forwarded-call\"}")
                .when().post("/internal/call/" + call.id() + "/runtime/events").then().statusCode(200)
                .body("status", equalTo("ended"));
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/hangup")));
    }

    @Test
    void whatTelephonyRefusesOrCannotDoLeavesTheCallLiveWithAClearAnswer() throws Exception {
        Live call = answeredCall();
        String telephonyPath = "/internal/phone-number/" + call.numberId() + "/transfer";
        String path = "/internal/call/" + call.id() + "/runtime/transfer";
        wireMock.stubFor(post(urlEqualTo(telephonyPath)).willReturn(aResponse().withStatus(422)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"twilio refused: The requested resource was not found (code 20404)\","
                        + "\"error\":\"Unprocessable Entity\",\"statusCode\":422}")));
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post(path)
                .then().statusCode(422)
                .body("error", equalTo("Unprocessable Entity"))
                .body("message", equalTo("the carrier refused the transfer; the call was not transferred"));
        wireMock.stubFor(post(urlEqualTo(telephonyPath)).willReturn(aResponse().withStatus(503)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":\"twilio answered HTTP 500\",\"error\":\"Service Unavailable\",\"statusCode\":503}")));
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post(path)
                .then().statusCode(503).body("statusCode", equalTo(503));
        orgA().when().get("/call/" + call.id()).then().statusCode(200)
                .body("status", equalTo("in-progress"))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("forwardedPhoneNumber")));
    }

    @Test
    void aWebCallAnEndedCallAndBadInputAreRefusedClearly() {
        String web = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post("/internal/call/" + web + "/runtime/transfer")
                .then().statusCode(409)
                .body("error", equalTo("Conflict"))
                .body("message", equalTo("a web call cannot be transferred to a phone number: it has no carrier call"));

        Live call = answeredCall();
        String path = "/internal/call/" + call.id() + "/runtime/transfer";
        internal(TestKeys.ORG_A).body("{\"number\":\"4155550177\"}").when().post(path)
                .then().statusCode(400)
                .body("message", contains("number must be a valid phone number in the E.164 format"));
        internal(TestKeys.ORG_A).body("{\"number\":\"" + TO + "\",\"x\":1}").when().post(path)
                .then().statusCode(400).body("message", contains("property x should not exist"));
        internal(TestKeys.ORG_A).body("{}").when().post(path)
                .then().statusCode(400).body("message", contains("number should not be null or undefined"));
        // Another organisation's call, a malformed id, an API key.
        internal(TestKeys.ORG_B).body(transfer(TO)).when().post(path).then().statusCode(404);
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post("/internal/call/nope/runtime/transfer").then().statusCode(404);
        orgA().body(transfer(TO)).when().post(path).then().statusCode(401);

        orgA().when().post("/call/" + call.id() + "/end").then().statusCode(200);
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post(path)
                .then().statusCode(409)
                .body("message", equalTo("the call has ended (manually-canceled); it cannot be transferred"));
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/transfer")));
    }

    @Test
    void aCallFromAnInlineNumberIsTransferredThroughTransferInline() {
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/dial-inline"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withTransformers("response-template")
                        .withBody("{\"callId\":\"{{jsonPath request.body '$.callId'}}\",\"phoneCallProvider\":\"twilio\","
                                + "\"phoneCallProviderId\":\"CT-{{jsonPath request.body '$.callId'}}\"}")));
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/transfer-inline"))
                .willReturn(okJson("{\"transferred\":true}")));
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumber\":{"
                        + "\"twilioPhoneNumber\":\"+14155550100\",\"twilioAccountSid\":\"AC123\",\"twilioAuthToken\":\"t-"
                        + newId() + "\"},\"customer\":{\"number\":\"+14155550123\"}}")
                .when().post("/call").then().statusCode(201).extract().path("id");
        internal(TestKeys.ORG_A).body(transfer(TO)).when().post("/internal/call/" + id + "/runtime/transfer")
                .then().statusCode(200).body("forwardedPhoneNumber", equalTo(TO));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/transfer-inline"))
                .withRequestBody(equalToJson("{\"phoneCallProviderId\":\"CT-" + id + "\",\"number\":\"" + TO + "\"}")));
    }

    private JsonNode read(String payload) {
        try {
            return json.readTree(payload);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
