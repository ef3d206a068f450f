package dev.voiceplane.call.repository;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.postgresql.PGStatement;

/**
 * The delivery state of server messages in {@code call_outbox} and their attempts in {@code call_delivery_attempts},
 * for the delivery worker, the delivery log and the queue's metrics ({@code delivery/}). Plain JDBC on the
 * datasource, since the worker runs off any request: a claim is one autocommitted statement, the results of a batch
 * of sends one statement in one transaction, so neither is ever half written. (The messages are written by
 * {@link Outbox}, in the transaction that changed the call.)
 */
@ApplicationScoped
public class DeliveryStore {

    /** A claimed message. {@code attempt} is this attempt's number; {@code made} the attempts of its schedule before. */
    public record Claimed(UUID id, String orgId, UUID callId, int seq, String type, String payload, int attempt,
            int made, Instant createdAt) {
    }

    /** One attempt as the delivery log shows it. */
    public record Attempt(int attempt, Instant at, String url, Integer statusCode, long latencyMillis, String outcome,
            String error) {
    }

    /** A message and its attempts. */
    public record Message(UUID id, UUID callId, int seq, String type, String status, int attempts, Instant createdAt,
            Instant nextAttemptAt, Instant deliveredAt, Integer lastStatusCode, String lastError, List<Attempt> log) {
    }

    /** Undelivered messages, how many are due, and the age of the oldest due one. */
    public record Queue(long undelivered, long due, Duration oldestDueAge) {
    }

    private final AgroalDataSource dataSource;
    private final String outbox;
    private final String attempts;
    private final String calls;

    public DeliveryStore(AgroalDataSource dataSource,
            @ConfigProperty(name = "quarkus.hibernate-orm.database.default-schema") String schema) {
        this.dataSource = dataSource;
        this.outbox = schema + ".call_outbox";
        this.attempts = schema + ".call_delivery_attempts";
        this.calls = schema + ".calls";
    }

    /**
     * Claims up to {@code limit} due messages for {@code lease}: each the first undelivered message of its call (an
     * earlier one still pending or in flight holds the later ones back; a dead or skipped one does not), skipping
     * rows another replica holds. A claim that is not finished within the lease is due again (its replica died).
     */
    public List<Claimed> claim(int limit, Duration lease) {
        String sql = "update " + outbox + " o set status = 'delivering', attempts = o.attempts + 1,"
                + " lease_until = now() + make_interval(secs => ?), next_attempt_at = now() + make_interval(secs => ?)"
                + " where o.id in (select c.id from " + outbox + " c"
                + "   where c.status in ('pending', 'delivering') and c.next_attempt_at <= now()"
                + "   and not exists (select 1 from " + outbox + " p where p.org_id = c.org_id and p.call_id = c.call_id"
                + "     and p.seq < c.seq and p.status in ('pending', 'delivering'))"
                + "   order by c.next_attempt_at limit ? for update skip locked)"
                + " returning o.id, o.org_id, o.call_id, o.seq, o.message_type, cast(o.payload as text), o.attempts,"
                + " o.schedule_start, o.created_at";
        List<Claimed> claimed = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); PreparedStatement claim = connection.prepareStatement(sql)) {
            // Planned with this claim's limit each time: a generic plan (after five executions of a server-side
            // prepared statement) cannot know how few rows the limit takes and may scan the whole table.
            claim.unwrap(PGStatement.class).setPrepareThreshold(0);
            double seconds = lease.toMillis() / 1000.0;
            claim.setDouble(1, seconds);
            claim.setDouble(2, seconds);
            claim.setInt(3, limit);
            try (ResultSet rows = claim.executeQuery()) {
                while (rows.next()) {
                    int attempt = rows.getInt(7);
                    claimed.add(new Claimed(rows.getObject(1, UUID.class), rows.getString(2),
                            rows.getObject(3, UUID.class), rows.getInt(4), rows.getString(5), rows.getString(6),
                            attempt, attempt - 1 - rows.getInt(8), rows.getTimestamp(9).toInstant()));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("due messages cannot be claimed", e);
        }
        return claimed;
    }

    /**
     * What became of one claimed message: an attempt ({@code delivered}, {@code dead}, or {@code pending} again at
     * {@code nextAttempt}) or {@code skipped} (nowhere to send it: no attempt made, its claim's count given back).
     */
    public record Outcome(Claimed message, String status, Instant nextAttempt, Instant attemptedAt, String url,
            Integer statusCode, long latencyMillis, String outcome, String error) {

        public static Outcome skipped(Claimed message, String why) {
            return new Outcome(message, "skipped", null, null, null, null, 0, null, why);
        }
    }

    /**
     * Records the outcomes of a batch of sends in one statement and one commit: each message's new state, and one
     * attempt row per attempt made (a skip has none). Only the claim that made an attempt may record it (a claim that
     * expired and was taken over is not overwritten); answers the new status of each message that was recorded.
     *
     * <p>The commit does not wait for the WAL flush ({@code synchronous_commit = off}, for this transaction only): a
     * PostgreSQL crash may lose the last few hundred milliseconds of results, which leaves those messages claimed
     * ({@code delivering}) until their lease ends, and then they are sent again with the same {@code webhook-id}, as
     * after a killed replica. Delivery is at least once either way; no message is lost, and a later synchronous commit
     * (the next claim) flushes every earlier result with it.
     */
    public Map<UUID, String> record(List<Outcome> outcomes) {
        if (outcomes.isEmpty()) {
            return Map.of();
        }
        String sql = "with r as (select * from unnest(?::uuid[], ?::int4[], ?::text[], ?::int8[], ?::int8[], ?::text[],"
                + " ?::int4[], ?::int4[], ?::text[], ?::text[])"
                + "   as r(id, attempt, status, next_ms, at_ms, url, status_code, latency_ms, outcome, error)),"
                + " done as (update " + outbox + " o set status = r.status, lease_until = null,"
                + "   attempts = case when r.status = 'skipped' then o.attempts - 1 else o.attempts end,"
                + "   next_attempt_at = coalesce(timestamptz 'epoch' + r.next_ms * interval '1 millisecond', o.next_attempt_at),"
                + "   last_status_code = case when r.status = 'skipped' then o.last_status_code else r.status_code end,"
                + "   last_error = r.error,"
                + "   delivered_at = case when r.status = 'delivered' then now() else o.delivered_at end"
                + "   from r where o.id = r.id and o.status = 'delivering' and o.attempts = r.attempt"
                + "   returning o.id, o.org_id, o.call_id, o.status),"
                + " logged as (insert into " + attempts + " (org_id, message_id, attempt, call_id, attempted_at, url,"
                + "   status_code, latency_ms, outcome, error)"
                + "   select d.org_id, d.id, r.attempt, d.call_id, timestamptz 'epoch' + r.at_ms * interval '1 millisecond',"
                + "   r.url, r.status_code, r.latency_ms, r.outcome, r.error from done d join r on r.id = d.id"
                + "   where d.status <> 'skipped')"
                + " select id, status from done";
        int n = outcomes.size();
        UUID[] ids = new UUID[n];
        Integer[] attemptNumbers = new Integer[n];
        String[] statuses = new String[n];
        Long[] next = new Long[n];
        Long[] at = new Long[n];
        String[] urls = new String[n];
        Integer[] codes = new Integer[n];
        Integer[] latencies = new Integer[n];
        String[] kinds = new String[n];
        String[] errors = new String[n];
        for (int i = 0; i < n; i++) {
            Outcome o = outcomes.get(i);
            ids[i] = o.message().id();
            attemptNumbers[i] = o.message().attempt();
            statuses[i] = o.status();
            next[i] = o.nextAttempt() == null ? null : o.nextAttempt().toEpochMilli();
            at[i] = o.attemptedAt() == null ? null : o.attemptedAt().toEpochMilli();
            urls[i] = o.url();
            codes[i] = o.statusCode();
            latencies[i] = (int) Math.min(Integer.MAX_VALUE, o.latencyMillis());
            kinds[i] = o.outcome();
            errors[i] = o.error();
        }
        Map<UUID, String> recorded = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                try (Statement relaxed = connection.createStatement()) {
                    relaxed.execute("set local synchronous_commit = off");
                }
                try (PreparedStatement update = connection.prepareStatement(sql)) {
                    update.setArray(1, connection.createArrayOf("uuid", ids));
                    update.setArray(2, connection.createArrayOf("int4", attemptNumbers));
                    update.setArray(3, connection.createArrayOf("text", statuses));
                    update.setArray(4, connection.createArrayOf("int8", next));
                    update.setArray(5, connection.createArrayOf("int8", at));
                    update.setArray(6, connection.createArrayOf("text", urls));
                    update.setArray(7, connection.createArrayOf("int4", codes));
                    update.setArray(8, connection.createArrayOf("int4", latencies));
                    update.setArray(9, connection.createArrayOf("text", kinds));
                    update.setArray(10, connection.createArrayOf("text", errors));
                    try (ResultSet rows = update.executeQuery()) {
                        while (rows.next()) {
                            recorded.put(rows.getObject(1, UUID.class), rows.getString(2));
                        }
                    }
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("delivery attempts cannot be recorded", e);
        }
        return recorded;
    }

    /**
     * Deletes up to {@code limit} messages that finished (delivered, skipped, dead) before {@code cutoff}, with their
     * attempt logs, in one statement; rows another replica is deleting are skipped. Answers how many went.
     */
    public int purge(Instant cutoff, int limit) {
        String sql = "with gone as (delete from " + outbox + " where id in (select id from " + outbox
                + "   where created_at < ? and status in ('delivered', 'skipped', 'dead')"
                + "   and coalesce(delivered_at, next_attempt_at) < ? limit ? for update skip locked) returning id),"
                + " logs as (delete from " + attempts + " a using gone where a.message_id = gone.id)"
                + " select count(*) from gone";
        try (Connection connection = dataSource.getConnection(); PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setTimestamp(1, Timestamp.from(cutoff));
            delete.setTimestamp(2, Timestamp.from(cutoff));
            delete.setInt(3, limit);
            try (ResultSet rows = delete.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("old deliveries cannot be purged", e);
        }
    }

    /** Whether the organisation has this call (its deliveries may be read). */
    public boolean hasCall(String orgId, UUID callId) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("select 1 from " + calls
                        + " where org_id = ? and id = ?")) {
            select.setString(1, orgId);
            select.setObject(2, callId);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("a call cannot be read", e);
        }
    }

    /** A call's messages in order with their attempts. */
    public List<Message> ofCall(String orgId, UUID callId) {
        return messages(orgId, "call_id = ?", callId);
    }

    public Optional<Message> message(String orgId, UUID messageId) {
        return messages(orgId, "id = ?", messageId).stream().findFirst();
    }

    /** A dead message is pending again with a new schedule; answers false when it is not (or no longer) dead. */
    public boolean redeliver(String orgId, UUID messageId) {
        return execute("update " + outbox + " set status = 'pending', schedule_start = attempts,"
                + " next_attempt_at = now(), lease_until = null where org_id = ? and id = ? and status = 'dead'",
                orgId, messageId) == 1;
    }

    public Queue queue() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("select count(*),"
                        + " count(*) filter (where next_attempt_at <= now()),"
                        + " extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now()))"
                        + " from " + outbox + " where status in ('pending', 'delivering')");
                ResultSet rows = select.executeQuery()) {
            rows.next();
            double age = rows.getDouble(3);
            return new Queue(rows.getLong(1), rows.getLong(2), Duration.ofMillis(Math.round(Math.max(0, age) * 1000)));
        } catch (SQLException e) {
            throw new IllegalStateException("the delivery queue cannot be read", e);
        }
    }

    private List<Message> messages(String orgId, String where, UUID id) {
        Map<UUID, Message> found = new LinkedHashMap<>();
        Map<UUID, List<Attempt>> logs = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement select = connection.prepareStatement("select id, call_id, seq, message_type, status,"
                    + " attempts, created_at, next_attempt_at, delivered_at, last_status_code, last_error from " + outbox
                    + " where org_id = ? and " + where + " order by call_id, seq")) {
                select.setString(1, orgId);
                select.setObject(2, id);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        UUID messageId = rows.getObject(1, UUID.class);
                        List<Attempt> log = new ArrayList<>();
                        logs.put(messageId, log);
                        found.put(messageId, new Message(messageId, rows.getObject(2, UUID.class), rows.getInt(3),
                                rows.getString(4), rows.getString(5), rows.getInt(6), instant(rows, 7),
                                instant(rows, 8), instant(rows, 9), (Integer) rows.getObject(10), rows.getString(11), log));
                    }
                }
            }
            if (found.isEmpty()) {
                return List.of();
            }
            try (PreparedStatement select = connection.prepareStatement("select message_id, attempt, attempted_at, url,"
                    + " status_code, latency_ms, outcome, error from " + attempts
                    + " where org_id = ? and message_id = any(?) order by message_id, attempt")) {
                select.setString(1, orgId);
                select.setArray(2, connection.createArrayOf("uuid", found.keySet().toArray()));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        logs.get(rows.getObject(1, UUID.class)).add(new Attempt(rows.getInt(2), instant(rows, 3),
                                rows.getString(4), (Integer) rows.getObject(5), rows.getLong(6), rows.getString(7),
                                rows.getString(8)));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("deliveries cannot be read", e);
        }
        return new ArrayList<>(found.values());
    }

    private static Instant instant(ResultSet rows, int column) throws SQLException {
        Timestamp value = rows.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private int execute(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the delivery state cannot be changed", e);
        }
    }
}
