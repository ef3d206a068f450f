package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The status machine driven by carrier events: recorded once, applied forward only, the first end wins. */
@QuarkusTest
class CarrierEventsTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    record Placed(String id, String carrierCallId, String numberId) {
    }

    Placed outbound() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA" + newId().replace("-", "");
        Stubs.dial(wireMock, numberId, carrierCallId);
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        return new Placed(id, carrierCallId, numberId);
    }

    static String event(String eventId, String callId, String carrierCallId, String type, String status,
            String answeredBy, Long sequence, Long duration) {
        return "{\"eventId\":\"" + eventId + "\"," + (callId == null ? "" : "\"callId\":\"" + callId + "\",")
                + "\"phoneCallProvider\":\"twilio\",\"phoneCallProviderId\":\"" + carrierCallId + "\",\"type\":\""
                + type + "\"" + (status == null ? "" : ",\"carrierStatus\":\"" + status + "\"")
                + (answeredBy == null ? "" : ",\"answeredBy\":\"" + answeredBy + "\"")
                + (sequence == null ? "" : ",\"sequenceNumber\":" + sequence)
                + (duration == null ? "" : ",\"durationSeconds\":" + duration) + ",\"direction\":\"outbound\"}";
    }

    static void report(String body, boolean recorded, boolean applied, String status) {
        internal(TestKeys.ORG_A).body(body).when().post("/internal/call/events").then().statusCode(200)
                .body("recorded", equalTo(recorded)).body("applied", equalTo(applied)).body("status", equalTo(status));
    }

    @Test
    void duplicatedAndReorderedEventsChangeNothingTwice() throws Exception {
        Placed call = outbound();
        String ringing = event("twilio:" + call.carrierCallId() + ":status:1", call.id(), call.carrierCallId(), "status", "ringing", null, 1L, null);
        report(ringing, true, true, "ringing");
        report(ringing, false, false, "ringing"); // the same event again
        report(event("twilio:" + call.carrierCallId() + ":status:3", call.id(), call.carrierCallId(), "status", "in-progress", null, 3L, null),
                true, true, "in-progress");
        // A late ringing (older sequence, another event id) is recorded, not applied.
        report(event("twilio:" + call.carrierCallId() + ":status:2", call.id(), call.carrierCallId(), "status", "ringing", null, 2L, null),
                true, false, "in-progress");
        // Found by the carrier's call id alone (no callId), as Vonage events come.
        report(event("twilio:" + call.carrierCallId() + ":status:5", null, call.carrierCallId(), "status", "completed", null, 5L, 65L),
                true, true, "ended");
        // After the end nothing changes the status or the reason.
        report(event("twilio:" + call.carrierCallId() + ":status:6", call.id(), call.carrierCallId(), "status", "busy", null, 6L, null),
                true, false, "ended");
        report(event("twilio:" + call.carrierCallId() + ":status:7", call.id(), call.carrierCallId(), "status", "in-progress", null, 7L, null),
                true, false, "ended");

        orgA().when().get("/call/" + call.id()).then().statusCode(200)
                .body("status", equalTo("ended"))
                .body("endedReason", equalTo("customer-ended-call"))
                .body("startedAt", notNullValue())
                .body("endedAt", notNullValue());
        List<String> updates = Outboxes.payloads(dataSource, call.id(), "status-update");
        assertEquals(4, updates.size(), updates.toString()); // queued, ringing, in-progress, ended: each once
        // Every distinct event is kept for the record, the duplicate once.
        assertEquals(6, dev.voiceplane.kit.testing.TestDatabase.count(dataSource,
                "select count(*) from call.call_events where call_id = ?", java.util.UUID.fromString(call.id())));
    }

    @Test
    void finalCarrierStatusesMapToTheErasReasons() {
        String[][] cases = {{"busy", "customer-busy"}, {"no-answer", "customer-did-not-answer"},
                {"failed", "twilio-failed-to-connect-call"}, {"canceled", "customer-ended-call"}};
        for (String[] mapping : cases) {
            Placed call = outbound();
            report(event("twilio:" + call.carrierCallId() + ":" + mapping[0], call.id(), call.carrierCallId(), "status",
                    mapping[0], null, 2L, null), true, true, "ended");
            orgA().when().get("/call/" + call.id()).then().body("endedReason", equalTo(mapping[1]))
                    .body("startedAt", org.hamcrest.Matchers.nullValue());
        }
    }

    @Test
    void anAnsweringMachineEndsTheCallAsVoicemailAndHangsUp() {
        Placed call = outbound();
        report(event("a1", call.id(), call.carrierCallId(), "status", "in-progress", null, 1L, null), true, true, "in-progress");
        report(event("amd", call.id(), call.carrierCallId(), "answered-by", null, "human", null, null), true, false, "in-progress");
        report(event("amd2", call.id(), call.carrierCallId(), "answered-by", null, "machine_end_beep", null, null), true, true, "ended");
        orgA().when().get("/call/" + call.id()).then().body("endedReason", equalTo("voicemail"));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + call.numberId() + "/hangup"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo(call.carrierCallId()))));
    }

    @Test
    void onlyTheAssistantsVoicemailTypesCountAsVoicemail() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA-vm-" + newId();
        Stubs.dial(wireMock, numberId, carrierCallId);
        String id = orgA().body("{\"assistant\":{\"voicemailDetection\":{\"provider\":\"twilio\","
                + "\"voicemailDetectionTypes\":[\"machine_end_beep\"]}},\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        wireMock.verify(postRequestedFor(urlEqualTo("/internal/phone-number/" + numberId + "/dial"))
                .withRequestBody(matchingJsonPath("$.voicemailDetection.voicemailDetectionTypes[0]",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo("machine_end_beep"))));
        report(event("vm1", id, carrierCallId, "answered-by", null, "machine_start", null, null), true, false, "queued");
        report(event("vm2", id, carrierCallId, "answered-by", null, "machine_end_beep", null, null), true, true, "ended");
        orgA().when().get("/call/" + id).then().body("endedReason", equalTo("voicemail"));
    }

    @Test
    void anEventForAnUnknownCallIsA404AndBadEventsA400() {
        internal(TestKeys.ORG_A).body(event("x", null, "CA-nobody", "status", "ringing", null, 1L, null))
                .when().post("/internal/call/events").then().statusCode(404);
        // Another organisation's call is unknown too.
        Placed call = outbound();
        internal(TestKeys.ORG_B).body(event("y", call.id(), call.carrierCallId(), "status", "ringing", null, 1L, null))
                .when().post("/internal/call/events").then().statusCode(404);
        internal(TestKeys.ORG_A).body("{\"phoneCallProvider\":\"twilio\"}").when().post("/internal/call/events")
                .then().statusCode(400);
        // An API key never opens the internal routes.
        orgA().body(event("z", call.id(), call.carrierCallId(), "status", "ringing", null, 1L, null))
                .when().post("/internal/call/events").then().statusCode(401);
    }
}
