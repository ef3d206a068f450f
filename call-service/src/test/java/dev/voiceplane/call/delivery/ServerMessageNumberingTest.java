package dev.voiceplane.call.delivery;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.call.service.ServerMessages;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import dev.voiceplane.kit.persistence.OrgScopedId;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every server message of a call gets a number of its own, in the order the messages are written, whatever the
 * writing transactions read of the call before: two writers that read the call at the same time, and a transaction
 * that flushes a call it read before another transaction wrote a message. A repeated number would fail the write
 * (the outbox's unique {@code (org_id, call_id, seq)}) and so the whole change that wrote it.
 */
@QuarkusTest
class ServerMessageNumberingTest {

    @InjectWireMock
    WireMockServer receiver;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Deliveries deliveries;

    @Inject
    DeliveryConfig config;

    @Inject
    CallRepository calls;

    @Inject
    ServerMessages messages;

    @Test
    void twoTransactionsWritingForOneCallAtOnceNumberTheirMessagesInTurnAndTheyArriveInThatOrder() throws Exception {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        String callId = DeliveryTest.callTo(receiver, path, null); // its status-update is message 1
        UUID id = UUID.fromString(callId);

        // Both writers have read the call (one message so far) before either writes: a number taken from what
        // they read would be 2 for both.
        int writers = 2;
        CountDownLatch read = new CountDownLatch(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                runs.add(pool.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
                    Call call = calls.findOwned(TestKeys.ORG_A, id).orElseThrow();
                    read.countDown();
                    awaitBounded(read);
                    messages.hang(call);
                })));
            }
            for (Future<?> run : runs) {
                run.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of("1:status-update", "2:hang", "3:hang"), numbered(callId));

        DeliveryWorker worker = DeliveryTest.worker(deliveries, TestDeliveryConfig.of(config));
        try {
            JsonPath log = DeliveryTest.settled(callId);
            assertEquals(List.of("delivered", "delivered", "delivered"), log.getList("status"));
            assertEquals(log.getList("id", String.class), DeliveryTest.arrivals(receiver, path));
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void aCallReadBeforeAnotherMessageWasWrittenAndThenChangedDoesNotSetTheNumberingBack() throws Exception {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        String callId = DeliveryTest.callTo(receiver, path, null); // message 1
        UUID id = UUID.fromString(callId);

        QuarkusTransaction.requiringNew().run(() -> {
            // Read managed and unlocked (Panache's own lookup; the repository's reads are detached or locked).
            Call stale = calls.findByIdOptional(new OrgScopedId(TestKeys.ORG_A, id)).orElseThrow();
            // Meanwhile another transaction writes message 2 and commits.
            QuarkusTransaction.requiringNew().run(() -> messages.hang(calls.findOwnedForChange(TestKeys.ORG_A, id)
                    .orElseThrow()));
            // This one then changes the call it read before message 2: its flush writes the row.
            stale.name = "renamed";
            stale.touch();
        });
        QuarkusTransaction.requiringNew().run(() -> messages.statusUpdate(calls.findOwnedForChange(TestKeys.ORG_A, id)
                .orElseThrow()));

        assertEquals(List.of("1:status-update", "2:hang", "3:status-update"), numbered(callId));
        orgA().when().get("/call/" + callId).then().statusCode(200).body("name", equalTo("renamed"));
    }

    private static void awaitBounded(CountDownLatch latch) {
        try {
            assertTrue(latch.await(20, TimeUnit.SECONDS), "the other writer did not read the call");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code seq:type} of the call's outbox rows, in {@code seq} order. */
    private List<String> numbered(String callId) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); PreparedStatement select = connection.prepareStatement(
                "select seq, message_type from call.call_outbox where call_id = ?::uuid order by seq")) {
            select.setString(1, callId);
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getInt(1) + ":" + result.getString(2));
                }
            }
        }
        return rows;
    }
}
