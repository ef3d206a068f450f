package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading, listing, renaming, ending and deleting calls; two organisations never see each other's. */
@QuarkusTest
class CallManagementTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    private String webCall(String body) {
        return orgA().body(body).when().post("/call/web").then().statusCode(201).extract().path("id");
    }

    @Test
    void listsAreNewestFirstAndFilterByAssistantIdPhoneNumberIdAndId() {
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_A, "{\"name\":\"listed\"}");
        String first = webCall("{\"assistantId\":\"" + assistantId + "\"}");
        String second = webCall("{\"assistantId\":\"" + assistantId + "\"}");
        webCall("{\"assistant\":" + CallCreationTest.INLINE + "}");
        orgA().queryParam("assistantId", assistantId).when().get("/call").then().statusCode(200)
                .body("id", equalTo(List.of(second, first)));
        orgA().queryParam("id", first).when().get("/call").then().statusCode(200).body("id", equalTo(List.of(first)));
        orgA().queryParam("id", "not-a-uuid").when().get("/call").then().statusCode(200).body("size()", equalTo(0));
        orgA().queryParam("assistantId", assistantId).queryParam("limit", 1).when().get("/call").then()
                .body("id", equalTo(List.of(second)));
        orgA().queryParam("limit", 0).when().get("/call").then().body("size()", equalTo(0));
        orgA().queryParam("limit", 1001).when().get("/call").then().statusCode(400);
        orgA().queryParam("squadId", "x").when().get("/call").then().statusCode(400)
                .body("message", hasItem("property squadId should not exist"));
        orgA().queryParam("createdAtGt", "yesterday").when().get("/call").then().statusCode(400);
    }

    @Test
    void twoOrganisationsNeverSeeEachOthersCalls() {
        String id = webCall("{\"assistant\":" + CallCreationTest.INLINE + "}");
        orgB().when().get("/call/" + id).then().statusCode(404).body("message", equalTo("Call not found"));
        orgB().body("{\"name\":\"mine\"}").when().patch("/call/" + id).then().statusCode(404);
        orgB().when().post("/call/" + id + "/end").then().statusCode(404);
        orgB().when().delete("/call/" + id).then().statusCode(404);
        orgB().queryParam("limit", 1000).when().get("/call").then().statusCode(200)
                .body("id", not(hasItem(id))).body("orgId", everyItem(equalTo(TestKeys.ORG_B)));
        orgA().when().get("/call/" + id).then().statusCode(200).body("status", equalTo("queued"));
        orgA().when().get("/call/not-a-uuid").then().statusCode(404);
    }

    @Test
    void patchChangesOnlyNameAndMetadata() {
        String id = webCall("{\"assistant\":" + CallCreationTest.INLINE + ",\"name\":\"before\",\"metadata\":{\"a\":1}}");
        orgA().body("{\"name\":\"after\"}").when().patch("/call/" + id).then().statusCode(200)
                .body("name", equalTo("after")).body("metadata.a", equalTo(1));
        orgA().body("{\"metadata\":{\"b\":2}}").when().patch("/call/" + id).then().statusCode(200)
                .body("name", equalTo("after")).body("metadata.b", equalTo(2)).body("metadata.a", nullValue());
        orgA().body("{\"metadata\":null,\"name\":null}").when().patch("/call/" + id).then().statusCode(200)
                .body("metadata", nullValue()).body("name", nullValue());
        orgA().body("{\"status\":\"ended\",\"name\":5,\"metadata\":[1]}").when().patch("/call/" + id).then().statusCode(400)
                .body("message", hasItem("property status should not exist"))
                .body("message", hasItem("name must be a string"))
                .body("message", hasItem("metadata must be an object"));
        orgA().body("{\"name\":\"" + "x".repeat(41) + "\"}").when().patch("/call/" + id).then().statusCode(400);
        orgA().when().get("/call/" + id).then().body("status", equalTo("queued"));
    }

    @Test
    void endingOnRequestIsManuallyCanceledAndHangsUp() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA-end-" + newId();
        Stubs.dial(wireMock, numberId, carrierCallId);
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        orgA().when().post("/call/" + id + "/end").then().statusCode(200)
                .body("status", equalTo("ended")).body("endedReason", equalTo("manually-canceled"));
        // The carrier's own end afterwards changes nothing; ending again neither.
        CarrierEventsTest.report(CarrierEventsTest.event("end-c", id, carrierCallId, "status", "canceled", null, 3L, null),
                true, false, "ended");
        orgA().when().post("/call/" + id + "/end").then().statusCode(200).body("endedReason", equalTo("manually-canceled"));
        wireMock.verify(1, com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/internal/phone-number/" + numberId + "/hangup")));
    }

    @Test
    void aCallEndedWhileItIsBeingDialledIsHungUpOnceTheCarrierAnswers() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA-slow-" + newId();
        Stubs.dial(wireMock, numberId, carrierCallId);
        wireMock.stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(
                        com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/internal/phone-number/" + numberId + "/dial"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(201)
                        .withHeader("Content-Type", "application/json").withFixedDelay(3000)
                        .withBody("{\"phoneCallProvider\":\"twilio\",\"phoneCallProviderId\":\"" + carrierCallId + "\"}")));
        String name = "slow " + newId().substring(0, 8);
        java.util.concurrent.CompletableFuture<String> created = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"name\":\"" + name + "\",\"phoneNumberId\":\""
                        + numberId + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                        .then().statusCode(201).extract().path("id"));
        // The call is stored before it is dialled: find it (bounded poll) and end it while the carrier is slow.
        List<String> ids = Eventually.value("the call stored", Duration.ofSeconds(20), () -> {
            try {
                return Outboxes.column(dataSource, "select id::text from call.calls where name = ?", name);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        }, stored -> !stored.isEmpty());
        String id = ids.isEmpty() ? null : ids.getFirst();
        org.junit.jupiter.api.Assertions.assertNotNull(id, "the call was not stored before dialling");
        orgA().when().post("/call/" + id + "/end").then().statusCode(200).body("endedReason", equalTo("manually-canceled"));
        assertEquals(id, created.get(30, java.util.concurrent.TimeUnit.SECONDS));
        wireMock.verify(1, com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/internal/phone-number/" + numberId + "/hangup")));
        orgA().when().get("/call/" + id).then().body("phoneCallProviderId", equalTo(carrierCallId))
                .body("status", equalTo("ended"));
    }

    @Test
    void deleteEndsALiveCallThenDeletesItsData() throws Exception {
        String id = webCall("{\"assistant\":" + CallCreationTest.INLINE + "}");
        orgA().when().delete("/call/" + id).then().statusCode(200)
                .body("id", equalTo(id)).body("status", equalTo("ended"))
                .body("endedReason", equalTo("manually-canceled"));
        orgA().when().get("/call/" + id).then().statusCode(404);
        orgA().when().delete("/call/" + id).then().statusCode(404);
        java.util.UUID uuid = java.util.UUID.fromString(id);
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from call.call_documents where call_id = ?", uuid));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from call.call_events where call_id = ?", uuid));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from call.call_outbox where call_id = ?", uuid));
    }

    @Test
    void aRowHoldingAWireTextThisVersionDoesNotKnowIsAnsweredAsStored() throws Exception {
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"name\":\"from a newer release\"}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
        // An operator's hand edit, or values a newer release wrote (issue 45: this call's read was a 500, and so was
        // its organisation's list).
        try (java.sql.Connection connection = dataSource.getConnection();
                java.sql.PreparedStatement update = connection.prepareStatement("update call.calls set type = 'sipCall',"
                        + " status = 'on-hold', ended_reason = 'pipeline-error-newer' where id = ?::uuid")) {
            update.setString(1, id);
            assertEquals(1, update.executeUpdate());
        }
        orgA().when().get("/call/" + id).then().statusCode(200)
                .body("id", equalTo(id))
                .body("type", equalTo("sipCall"))
                .body("status", equalTo("on-hold"))
                .body("endedReason", equalTo("pipeline-error-newer"))
                .body("name", equalTo("from a newer release"));
        orgA().queryParam("limit", 1000).when().get("/call").then().statusCode(200)
                .body("find { it.id == '" + id + "' }.status", equalTo("on-hold"));
        orgA().queryParam("id", id).when().get("/call").then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].type", equalTo("sipCall"));
        orgB().when().get("/call/" + id).then().statusCode(404);
        // A read writes nothing: the row still holds what was put there.
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from call.calls where id = ?::uuid"
                + " and status = 'on-hold' and type = 'sipCall' and ended_reason = 'pipeline-error-newer'", id));
        // Put back as this version writes it, so no other test meets the row.
        try (java.sql.Connection connection = dataSource.getConnection();
                java.sql.PreparedStatement update = connection.prepareStatement("update call.calls set type = 'webCall',"
                        + " status = 'ended', ended_reason = 'customer-ended-call' where id = ?::uuid")) {
            update.setString(1, id);
            update.executeUpdate();
        }
    }
}
