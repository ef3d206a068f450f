package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.call.service.CallSweeper;
import dev.voiceplane.call.service.DialRetries;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A dial answered 503 (telephony-service or the carrier unavailable) leaves the call queued; it is dialled again
 * later with a bounded backoff, by one replica at a time, and ends {@code twilio-failed-to-connect-call} only after
 * the last attempt. Tests drive the retries by hand with a clock ahead of the backoff.
 */
@QuarkusTest
class DialRetryTest {

    @Inject
    DialRetries retries;

    @Inject
    CallSweeper sweeper;

    @Inject
    AgroalDataSource dataSource;

    @InjectWireMock
    WireMockServer wireMock;

    @ConfigProperty(name = "voice.call.dial-attempts")
    int attempts;

    private static final Duration AHEAD = Duration.ofHours(1);

    private void unavailable(String numberId) {
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/" + numberId + "/dial"))
                .willReturn(aResponse().withStatus(503).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"twilio is unavailable\",\"error\":\"Service Unavailable\",\"statusCode\":503}")));
    }

    private String create(String numberId) {
        return orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                        + "\",\"customer\":{\"number\":\"+14155550123\"}}")
                .when().post("/call/phone").then().statusCode(201)
                .body("status", equalTo("queued"))
                .body("endedReason", nullValue())
                .body("phoneCallProviderId", nullValue())
                .extract().path("id");
    }

    private int dials(String numberId, String callId) {
        return wireMock.findAll(postRequestedFor(urlEqualTo("/internal/phone-number/" + numberId + "/dial"))
                .withRequestBody(matchingJsonPath("$.callId", WireMock.equalTo(callId)))).size();
    }

    @Test
    void aCallWhoseDialIsUnavailableStaysQueuedAndIsDialledAgainLater() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        unavailable(numberId);
        String id = create(numberId);
        assertEquals(List.of("status-update"), Outboxes.types(dataSource, id), "queued, nothing ended");

        // Not due yet: the backoff has not passed.
        retries.retryDue(Instant.now());
        int asked = dials(numberId, id);
        orgA().when().get("/call/" + id).then().body("status", equalTo("queued"));

        // A call waiting for its next attempt is not "never answered" for the sweeper.
        Outboxes.execute(dataSource, "update call.calls set created_at = created_at - interval '1 hour' where id = ?::uuid", id);
        sweeper.sweep();
        orgA().when().get("/call/" + id).then().body("status", equalTo("queued"));

        String carrierCallId = "CA-retried-" + id;
        Stubs.dial(wireMock, numberId, carrierCallId);
        retries.retryDue(Instant.now().plus(AHEAD));
        orgA().when().get("/call/" + id).then().statusCode(200)
                .body("status", equalTo("queued"))
                .body("phoneCallProviderId", equalTo(carrierCallId))
                .body("phoneCallProviderDetails.statusCallbackEvent", equalTo("initiated"));
        assertEquals(asked + 1, dials(numberId, id));
        // The unanswered timeout counts from the placement, not from the creation an hour ago.
        sweeper.sweep();
        orgA().when().get("/call/" + id).then().body("status", equalTo("queued"));

        // Placed: nothing is pending any more.
        retries.retryDue(Instant.now().plus(AHEAD).plus(AHEAD));
        assertEquals(asked + 1, dials(numberId, id));
        assertEquals(List.of("status-update"), Outboxes.types(dataSource, id));
    }

    @Test
    void concurrentRetriesOnSeveralReplicasDialOnce() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        unavailable(numberId);
        String id = create(numberId);
        int asked = dials(numberId, id);
        Stubs.dial(wireMock, numberId, "CA-once-" + id);

        int replicas = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(replicas);
        Instant later = Instant.now().plus(AHEAD);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                Callable<Integer> run = () -> {
                    start.await();
                    return retries.retryDue(later);
                };
                runs.add(pool.submit(run));
            }
            start.countDown();
            for (Future<Integer> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(asked + 1, dials(numberId, id), "one more dial, whatever the number of replicas");
        orgA().when().get("/call/" + id).then().body("phoneCallProviderId", equalTo("CA-once-" + id));
    }

    @Test
    void afterTheLastAttemptTheCallEndsFailedToConnect() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        unavailable(numberId);
        String id = create(numberId); // attempt 1
        Instant clock = Instant.now();
        for (int attempt = 2; attempt < attempts; attempt++) {
            clock = clock.plus(AHEAD);
            retries.retryDue(clock);
            orgA().when().get("/call/" + id).then().body("status", equalTo("queued"));
        }
        retries.retryDue(clock.plus(AHEAD)); // the last attempt
        orgA().when().get("/call/" + id).then()
                .body("status", equalTo("ended"))
                .body("endedReason", equalTo("twilio-failed-to-connect-call"));
        assertEquals(List.of("status-update", "status-update", "end-of-call-report"), Outboxes.types(dataSource, id));
        int asked = dials(numberId, id);
        retries.retryDue(clock.plus(AHEAD).plus(AHEAD));
        assertEquals(asked, dials(numberId, id), "an ended call is not dialled again");
    }

    @Test
    void aCallEndedWhileWaitingForItsNextAttemptIsNotDialledAgain() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        unavailable(numberId);
        String id = create(numberId);
        orgA().when().post("/call/" + id + "/end").then().statusCode(200).body("endedReason", equalTo("manually-canceled"));
        int asked = dials(numberId, id);
        Stubs.dial(wireMock, numberId, "CA-never-" + id);
        retries.retryDue(Instant.now().plus(AHEAD));
        assertEquals(asked, dials(numberId, id));
    }

    @Test
    void aDialBeingPlacedElsewhereRightNow409IsAskedAgainLater() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        wireMock.stubFor(post(urlEqualTo("/internal/phone-number/" + numberId + "/dial"))
                .willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"being dialled\",\"error\":\"Conflict\",\"statusCode\":409}")));
        String id = create(numberId);
        Stubs.dial(wireMock, numberId, "CA-409-" + id);
        retries.retryDue(Instant.now().plus(AHEAD));
        orgA().when().get("/call/" + id).then().body("status", equalTo("queued"))
                .body("phoneCallProviderId", equalTo("CA-409-" + id));
    }
}
