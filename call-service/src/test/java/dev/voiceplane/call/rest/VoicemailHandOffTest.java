package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.call.rest.CarrierEventsTest.event;
import static dev.voiceplane.call.rest.CarrierEventsTest.report;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * An answering machine on a call whose assistant has a {@code voicemailMessage} (docs/calls.md, "Lifecycle"): the
 * call stays live and the runtime that holds it is told at the address it gave (WireMock stands in for the runtime),
 * or in the answer to that address when the machine came first; a runtime that cannot be reached leaves today's
 * behaviour (ended {@code voicemail}, hung up).
 */
@QuarkusTest
class VoicemailHandOffTest {

    @InjectWireMock
    WireMockServer wireMock;

    private record Placed(String id, String carrierCallId, String numberId) {
    }

    private Placed outbound() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA" + newId().replace("-", "");
        Stubs.dial(wireMock, numberId, carrierCallId);
        String id = orgA().body("{\"assistant\":{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"},"
                + "\"voicemailMessage\":\"Please call the Harbour Cafe back.\","
                + "\"voicemailDetection\":{\"provider\":\"twilio\"}},\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        report(event("s-" + id, id, carrierCallId, "status", "in-progress", null, 1L, null), true, true, "in-progress");
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200);
        return new Placed(id, carrierCallId, numberId);
    }

    private String runtimeUrl() {
        return "http://localhost:" + wireMock.port();
    }

    @Test
    void theRuntimeThatHoldsTheCallIsToldAndTheCallGoesOn() {
        Placed call = outbound();
        String route = "/internal/runtime/call/" + call.id() + "/voicemail";
        wireMock.stubFor(post(urlEqualTo(route)).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("{\"accepted\":true}")));
        internal(TestKeys.ORG_A).body("{\"url\":\"" + runtimeUrl() + "\"}")
                .when().post("/internal/call/" + call.id() + "/runtime/address")
                .then().statusCode(200).body("answeredBy", nullValue());

        report(event("amd-" + call.id(), call.id(), call.carrierCallId(), "answered-by", null, "machine_start", null,
                null), true, true, "in-progress");
        wireMock.verify(1, postRequestedFor(urlEqualTo(route))
                .withHeader("Authorization", WireMock.equalTo("Bearer " + TestKeys.INTERNAL_TOKEN))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.answeredBy", WireMock.equalTo("machine_start"))));
        orgA().when().get("/call/" + call.id()).then().body("status", equalTo("in-progress"))
                .body("endedReason", nullValue());
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/hangup")));

        // The runtime ends it once the message played.
        internal(TestKeys.ORG_A).body("{\"sequence\":0,\"type\":\"ended\",\"endedReason\":\"voicemail\"}")
                .when().post("/internal/call/" + call.id() + "/runtime/events").then().statusCode(200)
                .body("status", equalTo("ended"));
        orgA().when().get("/call/" + call.id()).then().body("endedReason", equalTo("voicemail"));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/hangup")));
    }

    @Test
    void aMachineBeforeTheRuntimesAddressIsInTheAnswerToIt() {
        Placed call = outbound();
        report(event("amd-" + call.id(), call.id(), call.carrierCallId(), "answered-by", null, "machine_end_beep", null,
                null), true, true, "in-progress");
        internal(TestKeys.ORG_A).body("{\"url\":\"" + runtimeUrl() + "\"}")
                .when().post("/internal/call/" + call.id() + "/runtime/address")
                .then().statusCode(200).body("answeredBy", equalTo("machine_end_beep"));
        orgA().when().get("/call/" + call.id()).then().body("status", equalTo("in-progress"));
    }

    @Test
    void aRuntimeThatCannotBeReachedLeavesTodaysBehaviour() {
        Placed call = outbound();
        wireMock.stubFor(post(urlEqualTo("/internal/runtime/call/" + call.id() + "/voicemail"))
                .willReturn(aResponse().withStatus(404)));
        internal(TestKeys.ORG_A).body("{\"url\":\"" + runtimeUrl() + "\"}")
                .when().post("/internal/call/" + call.id() + "/runtime/address").then().statusCode(200);
        report(event("amd-" + call.id(), call.id(), call.carrierCallId(), "answered-by", null, "machine_start", null,
                null), true, true, "ended");
        orgA().when().get("/call/" + call.id()).then().body("endedReason", equalTo("voicemail"));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/hangup")));
    }

    @Test
    void theAddressRouteIsScopedAndChecked() {
        Placed call = outbound();
        String path = "/internal/call/" + call.id() + "/runtime/address";
        internal(TestKeys.ORG_B).body("{\"url\":\"" + runtimeUrl() + "\"}").when().post(path).then().statusCode(404);
        orgA().body("{\"url\":\"" + runtimeUrl() + "\"}").when().post(path).then().statusCode(401);
        internal(TestKeys.ORG_A).body("{\"url\":\"not a url\"}").when().post(path).then().statusCode(400)
                .body("statusCode", equalTo(400));
        internal(TestKeys.ORG_A).body("{}").when().post(path).then().statusCode(400);
        internal(TestKeys.ORG_A).body("{\"url\":\"" + runtimeUrl() + "\"}")
                .when().post("/internal/call/" + newId() + "/runtime/address").then().statusCode(404);
    }
}
