package dev.voiceplane.call.delivery;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Several replicas against one database: two workers (separate pools, one JVM) deliver every message exactly once,
 * and a worker killed mid-batch loses nothing (its claims expire with the lease and the other worker sends them).
 * The messages name their receiver as a tool server (the first rule of the target order), so no call is needed.
 */
@QuarkusTest
class DeliveryReplicasTest {

    @InjectWireMock
    WireMockServer receiver;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Deliveries deliveries;

    @Inject
    DeliveryConfig config;

    /** {@code calls} calls with {@code perCall} messages each, all to {@code path}; their ids in insertion order. */
    List<UUID> queue(String path, int calls, int perCall) throws Exception {
        List<UUID> ids = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); PreparedStatement insert = connection.prepareStatement(
                "insert into call.call_outbox (id, org_id, call_id, seq, message_type, payload, next_attempt_at,"
                        + " created_at) values (?, ?, ?, ?, 'tool-calls', cast(? as jsonb), now(), now())")) {
            for (int c = 0; c < calls; c++) {
                UUID callId = UUID.randomUUID();
                for (int seq = 1; seq <= perCall; seq++) {
                    UUID id = UUID.randomUUID();
                    ids.add(id);
                    insert.setObject(1, id);
                    insert.setString(2, TestKeys.ORG_A);
                    insert.setObject(3, callId);
                    insert.setInt(4, seq);
                    insert.setString(5, "{\"message\":{\"type\":\"tool-calls\",\"n\":" + seq + ",\"toolWithToolCallList\":"
                            + "[{\"tool\":{\"type\":\"function\",\"server\":{\"url\":\"" + receiver.baseUrl() + path
                            + "\"}}}]}}");
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
        return ids;
    }

    Map<String, String> statuses(List<UUID> ids) throws Exception {
        return OutboxStatuses.of(dataSource, ids);
    }

    boolean allDelivered(List<UUID> ids) {
        try {
            Map<String, String> statuses = statuses(ids);
            return statuses.size() == ids.size() && statuses.values().stream().allMatch("delivered"::equals);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    Map<String, Long> receivedPerId(String path) {
        List<LoggedRequest> got = receiver.findAll(postRequestedFor(urlEqualTo(path)));
        return got.stream().collect(Collectors.groupingBy(r -> r.getHeader("webhook-id"), Collectors.counting()));
    }

    @Test
    void twoWorkersDeliverAThousandMessagesEachExactlyOnce() throws Exception {
        String path = "/replicas/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        List<UUID> ids = queue(path, 200, 5);
        DeliveryWorker one = deliveries.newWorker("one", TestDeliveryConfig.of(config).withConcurrency(16));
        DeliveryWorker two = deliveries.newWorker("two", TestDeliveryConfig.of(config).withConcurrency(16));
        one.start();
        two.start();
        try {
            Eventually.until("1,000 messages delivered", Duration.ofSeconds(120), () -> allDelivered(ids));
        } finally {
            one.stop(Duration.ofSeconds(5));
            two.stop(Duration.ofSeconds(5));
        }
        Map<String, Long> received = receivedPerId(path);
        assertEquals(ids.stream().map(UUID::toString).collect(Collectors.toSet()), received.keySet());
        Map<String, Long> twice = received.entrySet().stream().filter(e -> e.getValue() != 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), twice, "messages received more than once");
        // One attempt each in the log, and both workers did part of the work is not asserted: it depends on timing.
        try (Connection connection = dataSource.getConnection(); PreparedStatement count = connection.prepareStatement(
                "select count(*) from call.call_delivery_attempts where message_id = any(?)")) {
            count.setArray(1, connection.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                assertEquals(1000, rows.getInt(1));
            }
        }
    }

    @Test
    void aWorkerKilledMidBatchLosesNothing() throws Exception {
        String path = "/killed/" + UUID.randomUUID();
        // A slow receiver: the first worker is killed while its requests are in flight.
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200).withFixedDelay(3000)));
        List<UUID> ids = queue(path, 20, 1);
        DeliveryWorker doomed = deliveries.newWorker("doomed", TestDeliveryConfig.of(config).withConcurrency(8));
        doomed.start();
        Eventually.until("the first worker has requests in flight", () -> !receivedPerId(path).isEmpty());
        doomed.kill();
        Map<String, String> afterKill = statuses(ids);
        assertTrue(afterKill.values().stream().anyMatch("delivering"::equals), afterKill.toString());

        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        DeliveryWorker survivor = deliveries.newWorker("survivor", TestDeliveryConfig.of(config).withConcurrency(8));
        survivor.start();
        try {
            Eventually.until("every message delivered after the lease expired", Duration.ofSeconds(90),
                    () -> allDelivered(ids));
        } finally {
            survivor.stop(Duration.ofSeconds(5));
        }
        Map<String, Long> received = receivedPerId(path);
        assertEquals(ids.stream().map(UUID::toString).collect(Collectors.toSet()), received.keySet());
        Function<UUID, String> text = UUID::toString;
        assertTrue(ids.stream().map(text).allMatch(received::containsKey));
    }
}
