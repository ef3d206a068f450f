package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.Race;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** {@code Idempotency-Key}: the same key and body returns the first call and places no second carrier call. */
@QuarkusTest
class IdempotencyTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    private String phoneBody(String numberId, String name) {
        return "{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"},\"name\":\"" + name + "\"}";
    }

    @Test
    void theSameKeyAndBodyReturnTheFirstCallWithoutASecondDial() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        Stubs.dial(wireMock, numberId, "CA-idem-" + newId());
        String key = "key-" + newId();
        String first = orgA().header("Idempotency-Key", key).body(phoneBody(numberId, "idem"))
                .when().post("/call/phone").then().statusCode(201).extract().path("id");
        // The same body with its properties in another order is the same request.
        String reordered = "{\"name\":\"idem\",\"customer\":{\"number\":\"+14155550123\"},\"phoneNumberId\":\""
                + numberId + "\",\"assistant\":" + CallCreationTest.INLINE + "}";
        orgA().header("Idempotency-Key", key).body(reordered).when().post("/call/phone")
                .then().statusCode(201).body("id", equalTo(first));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + numberId + "/dial")));

        orgA().header("Idempotency-Key", key).body(phoneBody(numberId, "another")).when().post("/call/phone")
                .then().statusCode(409).body("error", equalTo("Conflict"));
        // The same key on another route is another request.
        orgA().header("Idempotency-Key", key).body(phoneBody(numberId, "idem")).when().post("/call")
                .then().statusCode(409);
        // Keys are the organisation's own.
        orgB().header("Idempotency-Key", key).body("{\"assistant\":" + CallCreationTest.INLINE + "}")
                .when().post("/call/web").then().statusCode(201);
    }

    @Test
    void concurrentCreationsWithOneKeyMakeOneCall() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        Stubs.dial(wireMock, numberId, "CA-race-" + newId());
        String key = "race-" + newId();
        String name = "race " + newId().substring(0, 8);
        Set<String> ids = ConcurrentHashMap.newKeySet();
        List<Integer> statuses = Race.statuses(6, () -> {
            var response = orgA().header("Idempotency-Key", key).body(phoneBody(numberId, name)).when().post("/call/phone");
            if (response.statusCode() == 201) {
                ids.add(response.path("id"));
            }
            return response.statusCode();
        });
        assertEquals(Collections.nCopies(6, 201), statuses);
        assertEquals(1, ids.size());
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from call.calls where name = ?", name));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + numberId + "/dial")));
    }

    @Test
    void aKeyMustBeSane() {
        orgA().header("Idempotency-Key", "k".repeat(256)).body("{\"assistant\":" + CallCreationTest.INLINE + "}")
                .when().post("/call/web").then().statusCode(400);
    }
}
