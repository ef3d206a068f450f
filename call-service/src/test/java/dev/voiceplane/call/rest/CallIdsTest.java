package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * The ids a call names are the caller's to get right: a value that cannot be an id is a 400 before any other
 * service is asked (it used to travel to assistant-service, be refused there, and come back as "assistant-service
 * is unavailable… try again later"), and another service refusing what it is asked is never reported as an outage.
 */
@QuarkusTest
class CallIdsTest {

    private static final String HUGE = "a".repeat(100_000);
    private static final String INLINE = CallCreationTest.INLINE;

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    private long calls() throws Exception {
        return TestDatabase.count(dataSource, "select count(*) from call.calls");
    }

    private int peerRequests() {
        return wireMock.findAll(anyRequestedFor(urlPathMatching("/internal/(assistant|squad|phone-number).*"))).size();
    }

    @Test
    void anIdThatIsNotAUuidIsA400BeforeAnyServiceIsAsked() throws Exception {
        long before = calls();
        int asked = peerRequests();
        String customer = ",\"customer\":{\"number\":\"+14155550123\"}";
        String[][] cases = {
            {"/call", "{\"assistantId\":\"" + HUGE + "\"}", "assistantId must be a UUID"},
            {"/call/web", "{\"assistantId\":\"" + HUGE + "\"}", "assistantId must be a UUID"},
            {"/call/phone", "{\"assistantId\":\"" + HUGE + "\",\"phoneNumberId\":\"" + newId() + "\"" + customer + "}",
                "assistantId must be a UUID"},
            {"/call", "{\"squadId\":\"" + HUGE + "\"}", "squadId must be a UUID"},
            {"/call/web", "{\"squadId\":\"not-a-squad\"}", "squadId must be a UUID"},
            {"/call/phone", "{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"" + HUGE + "\"" + customer + "}",
                "phoneNumberId must be a UUID"},
            {"/call", "{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"%00\"" + customer + "}",
                "phoneNumberId must be a UUID"},
            {"/call/web", "{\"squad\":{\"members\":[{\"assistantId\":\"" + HUGE + "\"}]}}",
                "squad.members.0.assistantId must be a UUID"},
        };
        for (String[] bad : cases) {
            orgA().body(bad[1]).when().post(bad[0]).then().statusCode(400)
                    .body("$", aMapWithSize(3))
                    .body("error", equalTo("Bad Request"))
                    .body("message", hasItem(bad[2]));
        }
        assertEquals(asked, peerRequests(), "another service was asked about ids that cannot be ids");
        assertEquals(before, calls());
    }

    @Test
    void aWellFormedIdThatDoesNotExistIsStillNamedAsSuch() {
        String unknown = newId();
        Stubs.unknownAssistant(wireMock, unknown);
        orgA().body("{\"assistantId\":\"" + unknown + "\"}").when().post("/call/web").then().statusCode(400)
                .body("message", contains("assistantId " + unknown + " does not exist"));
    }

    @Test
    void anotherServiceRefusingAReadIsNotReportedAsAnOutage() {
        String id = newId();
        // assistant-service refusing a well-formed read (a token or version mismatch between services): a fault of
        // the deployment to look into, not an outage a client should wait out.
        wireMock.stubFor(get(urlEqualTo("/internal/assistant/" + id)).willReturn(aResponse().withStatus(401)));
        orgA().body("{\"assistantId\":\"" + id + "\"}").when().post("/call/web").then().statusCode(500)
                .header("Retry-After", (String) null)
                .body("statusCode", equalTo(500))
                .body("message", startsWith("Internal server error; quote request id"));
    }
}
