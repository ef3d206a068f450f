package dev.voiceplane.call.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.call.repository.DeliveryStore;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Finished messages (delivered, skipped, dead) and their attempt logs are deleted once they finished longer than
 * {@code voice.webhook.retention} (30 days) ago, by any worker, in bounded batches; everything else is kept.
 */
@QuarkusTest
class DeliveryPurgeTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Deliveries deliveries;

    @Inject
    DeliveryStore store;

    @Inject
    DeliveryConfig config;

    static final Instant NOW = Instant.now();
    static final Instant OLD = NOW.minus(Duration.ofDays(40));

    /** A message of a call of its own with {@code attempts} attempt rows. */
    UUID message(String status, Instant createdAt, Instant nextAttemptAt, Instant deliveredAt, int attempts)
            throws Exception {
        UUID id = UUID.randomUUID();
        UUID callId = UUID.randomUUID();
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement insert = connection.prepareStatement("insert into call.call_outbox (id, org_id,"
                    + " call_id, seq, message_type, payload, status, attempts, next_attempt_at, created_at, delivered_at)"
                    + " values (?, ?, ?, 1, 'status-update', '{\"message\":{}}', ?, ?, ?, ?, ?)")) {
                insert.setObject(1, id);
                insert.setString(2, TestKeys.ORG_A);
                insert.setObject(3, callId);
                insert.setString(4, status);
                insert.setInt(5, attempts);
                insert.setTimestamp(6, Timestamp.from(nextAttemptAt));
                insert.setTimestamp(7, Timestamp.from(createdAt));
                insert.setTimestamp(8, deliveredAt == null ? null : Timestamp.from(deliveredAt));
                insert.executeUpdate();
            }
            try (PreparedStatement insert = connection.prepareStatement("insert into call.call_delivery_attempts"
                    + " (org_id, message_id, attempt, call_id, attempted_at, url, status_code, latency_ms, outcome)"
                    + " values (?, ?, ?, ?, ?, 'http://127.0.0.1/hook', 500, 3, 'retryable')")) {
                for (int attempt = 1; attempt <= attempts; attempt++) {
                    insert.setString(1, TestKeys.ORG_A);
                    insert.setObject(2, id);
                    insert.setInt(3, attempt);
                    insert.setObject(4, callId);
                    insert.setTimestamp(5, Timestamp.from(createdAt));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        return id;
    }

    long attemptRows(UUID id) throws Exception {
        try (Connection connection = dataSource.getConnection(); PreparedStatement count = connection.prepareStatement(
                "select count(*) from call.call_delivery_attempts where message_id = ?")) {
            count.setObject(1, id);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    @Test
    void aWorkerDeletesWhatFinishedBeforeTheRetentionAndKeepsTheRest() throws Exception {
        assertEquals(Duration.ofDays(30), config.retention());
        Instant future = NOW.plus(Duration.ofDays(1));
        UUID oldDelivered = message("delivered", OLD, OLD, OLD, 2);
        UUID oldDead = message("dead", OLD, OLD, null, 3);
        UUID oldSkipped = message("skipped", OLD, OLD, null, 0);
        // A dead letter redelivered: pending again (its next attempt not due yet), kept with its log.
        UUID redelivered = message("pending", OLD, future, null, 8);
        // Queued long ago but delivered yesterday (after a redelivery): finished within the retention.
        UUID deliveredLately = message("delivered", OLD, OLD, NOW.minus(Duration.ofDays(1)), 9);
        UUID recent = message("delivered", NOW, NOW, NOW, 1);
        List<UUID> all = List.of(oldDelivered, oldDead, oldSkipped, redelivered, deliveredLately, recent);

        DeliveryWorker worker = deliveries.newWorker("purge", TestDeliveryConfig.of(config));
        worker.start();
        try {
            Eventually.until("the old finished messages are deleted", Duration.ofSeconds(30),
                    () -> statuses(all).size() == 3);
        } finally {
            worker.stop(Duration.ofSeconds(5));
        }
        assertEquals(Map.of(redelivered.toString(), "pending", deliveredLately.toString(), "delivered",
                recent.toString(), "delivered"), statuses(all));
        assertEquals(0, attemptRows(oldDelivered));
        assertEquals(0, attemptRows(oldDead));
        assertEquals(8, attemptRows(redelivered));
        assertEquals(9, attemptRows(deliveredLately));
        assertEquals(1, attemptRows(recent));
    }

    @Test
    void aPurgeDeletesAtMostItsBatch() throws Exception {
        List<UUID> old = List.of(message("delivered", OLD, OLD, OLD, 1), message("delivered", OLD, OLD, OLD, 1),
                message("dead", OLD, OLD, null, 1));
        Instant cutoff = NOW.minus(Duration.ofDays(30));
        assertEquals(2, store.purge(cutoff, 2));
        while (store.purge(cutoff, 2) > 0) {
            // the rest, two at a time
        }
        assertEquals(Map.of(), statuses(old));
    }

    Map<String, String> statuses(List<UUID> ids) {
        try {
            return OutboxStatuses.of(dataSource, ids);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
