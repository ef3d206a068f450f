package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.call.service.CallSweeper;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The sweeper ends stuck calls, once, however many replicas sweep at the same time. */
@QuarkusTest
class SweeperTest {

    @Inject
    CallSweeper sweeper;

    @Inject
    AgroalDataSource dataSource;

    @InjectWireMock
    WireMockServer wireMock;

    @Test
    void stuckCallsAreEndedOnceByConcurrentSweeps() throws Exception {
        String neverAnswered = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
        Outboxes.execute(dataSource, "update call.calls set created_at = created_at - interval '1 hour' where id = ?::uuid",
                neverAnswered);

        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA-long-" + newId();
        Stubs.dial(wireMock, numberId, carrierCallId);
        String tooLong = orgA().body("{\"assistant\":{\"maxDurationSeconds\":60},\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        CarrierEventsTest.report(CarrierEventsTest.event("long-1", tooLong, carrierCallId, "status", "in-progress", null, 1L, null),
                true, true, "in-progress");
        // The voice runtime holds the long call's media: its end-of-call report waits for the runtime's usage.
        internal(TestKeys.ORG_A).when().post("/internal/call/" + tooLong + "/runtime/attach").then().statusCode(200);
        Outboxes.execute(dataSource, "update call.calls set started_at = started_at - interval '10 minutes' where id = ?::uuid",
                tooLong);

        String fresh = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");

        // Four "replicas" sweep at once.
        int replicas = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(replicas);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                Callable<Integer> run = () -> {
                    start.await();
                    return sweeper.sweep();
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

        orgA().when().get("/call/" + neverAnswered).then().body("status", equalTo("ended"))
                .body("endedReason", equalTo("vapi-error-phone-call-worker-call-never-connected"));
        orgA().when().get("/call/" + tooLong).then().body("status", equalTo("ended"))
                .body("endedReason", equalTo("exceeded-max-duration"));
        orgA().when().get("/call/" + fresh).then().body("status", equalTo("queued"));
        for (String id : List.of(neverAnswered, tooLong)) {
            long ends = Outboxes.payloads(dataSource, id, "status-update").stream()
                    .filter(payload -> payload.contains("\"status\": \"ended\"")).count();
            assertEquals(1, ends, id);
        }
        wireMock.verify(1, com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/internal/phone-number/" + numberId + "/hangup")));
        // The never-answered call had no runtime: its report is written at once; the long one waits for the runtime
        // until the report grace has passed.
        assertEquals(1, Outboxes.payloads(dataSource, neverAnswered, "end-of-call-report").size());
        assertEquals(0, Outboxes.payloads(dataSource, tooLong, "end-of-call-report").size());
        Outboxes.execute(dataSource, "update call.calls set ended_at = ended_at - interval '1 hour' where id = ?::uuid", tooLong);
        sweeper.sweep();
        sweeper.sweep();
        assertEquals(1, Outboxes.payloads(dataSource, tooLong, "end-of-call-report").size());
        internal(TestKeys.ORG_A).when().get("/internal/call/" + tooLong + "/runtime").then().statusCode(200);
    }
}
