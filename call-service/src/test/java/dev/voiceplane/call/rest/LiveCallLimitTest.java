package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgC;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.Race;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The live-call limit holds under concurrent creations (organisation C's limit is 3 in the test configuration;
 * no other test makes calls for C).
 */
@QuarkusTest
class LiveCallLimitTest {

    @Inject
    AgroalDataSource dataSource;

    @InjectWireMock
    WireMockServer wireMock;

    @Test
    void concurrentCreationsAtTheLimitAdmitExactlyTheLimit() throws Exception {
        String body = "{\"assistant\":" + CallCreationTest.INLINE + "}";
        List<Integer> statuses = Race.statuses(8, () -> orgC().body(body).when().post("/call/web").statusCode());
        assertEquals(3, Collections.frequency(statuses, 201), statuses.toString());
        assertEquals(5, Collections.frequency(statuses, 429), statuses.toString());
        assertEquals(3, TestDatabase.count(dataSource,
                "select count(*) from call.calls where org_id = ? and status <> 'ended'", TestKeys.ORG_C));

        orgC().body(body).when().post("/call/web").then().statusCode(429)
                .header("Retry-After", equalTo("5"))
                .body("statusCode", equalTo(429))
                .body("error", equalTo("Too Many Requests"))
                .body("message", startsWith("Over Concurrency Limit"));

        // Ending one frees a place.
        String live = orgC().queryParam("limit", 1).when().get("/call").then().statusCode(200).extract().path("[0].id");
        orgC().when().post("/call/" + live + "/end").then().statusCode(200).body("endedReason", equalTo("manually-canceled"));
        orgC().body(body).when().post("/call/web").then().statusCode(201);

        // At the limit again: an inbound call is recorded, ended and refused politely (telephony speaks the message).
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_C, "{\"name\":\"reception\"}");
        String carrierCallId = "CA-busy-" + TestClients.newId();
        internal(TestKeys.ORG_C).body("{\"phoneCallProvider\":\"twilio\",\"phoneCallProviderId\":\"" + carrierCallId
                        + "\",\"phoneCallTransport\":\"pstn\",\"customer\":{\"number\":\"+14155550999\"},\"phoneNumber\":"
                        + Stubs.numberJson(TestClients.newId(), TestKeys.ORG_C, assistantId, null) + "}")
                .when().post("/internal/call/inbound").then().statusCode(200)
                .body("answer", equalTo("refuse"))
                .body("message", containsString("busy"));
        orgC().queryParam("limit", 1).when().get("/call").then().statusCode(200)
                .body("[0].type", equalTo("inboundPhoneCall"))
                .body("[0].phoneCallProviderId", equalTo(carrierCallId))
                .body("[0].status", equalTo("ended"))
                .body("[0].endedReason", equalTo("unknown-error"));
        assertEquals(3, TestDatabase.count(dataSource,
                "select count(*) from call.calls where org_id = ? and status <> 'ended'", TestKeys.ORG_C));
    }
}
