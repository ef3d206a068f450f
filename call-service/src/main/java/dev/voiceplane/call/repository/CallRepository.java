package dev.voiceplane.call.repository;

import dev.voiceplane.call.domain.Call;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.PlainReads;
import io.quarkus.panache.common.Parameters;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

@ApplicationScoped
public class CallRepository implements OrgScopedRepository<Call> {

    /** The call read for its answer with its wire columns as stored ({@link Call#AS_STORED}), without the ORM. */
    public Optional<Call> findAsStored(String orgId, UUID id) {
        return PlainReads.find(Call.AS_STORED, orgId, id);
    }

    /**
     * A list's calls read for their answers as stored ({@link Call#AS_STORED}): the list's time filters, its
     * equality filters ({@code columns}: the parameter's column, and how its value is bound; null matches nothing),
     * newest first.
     */
    public List<Call> listAsStored(String orgId, ListParams params, Map<String, Map.Entry<String, Function<String, Object>>> columns) {
        StringBuilder where = new StringBuilder();
        List<Object> bound = new ArrayList<>();
        for (ListParams.TimeFilter filter : params.timeFilters()) {
            where.append(where.isEmpty() ? "" : " and ")
                    .append("createdAt".equals(filter.field()) ? "created_at" : "updated_at")
                    .append(' ').append(filter.operator()).append(" ?");
            bound.add(filter.bound());
        }
        for (Map.Entry<String, String> equality : params.equalities().entrySet()) {
            Map.Entry<String, Function<String, Object>> column = columns.get(equality.getKey());
            Object value = column.getValue().apply(equality.getValue());
            if (value == null) {
                return List.of();
            }
            where.append(where.isEmpty() ? "" : " and ").append(column.getKey()).append(" = ?");
            bound.add(value);
        }
        return params.limit() == 0 ? List.of()
                : PlainReads.list(Call.AS_STORED, orgId, where.toString(), bound, "created_at desc, id desc", params.limit());
    }

    /** The call a carrier knows by its own id. */
    public Optional<Call> findByCarrierCall(String orgId, String provider, String providerId) {
        return carrierCallId(orgId, provider, providerId).flatMap(id -> findOwned(orgId, id));
    }

    /** The same, locked for a change. */
    public Optional<Call> findByCarrierCallForChange(String orgId, String provider, String providerId) {
        return carrierCallId(orgId, provider, providerId).flatMap(id -> findOwnedForChange(orgId, id));
    }

    private Optional<UUID> carrierCallId(String orgId, String provider, String providerId) {
        @SuppressWarnings("unchecked")
        List<UUID> ids = getEntityManager()
                .createNativeQuery("select id from {h-schema}calls where org_id = :org and phone_call_provider = :provider"
                        + " and phone_call_provider_id = :providerId", UUID.class)
                .setParameter("org", orgId)
                .setParameter("provider", provider)
                .setParameter("providerId", providerId)
                .getResultList();
        return ids.stream().findFirst();
    }

    /**
     * Serialises, until the transaction ends, every writer that may add a live call to the organisation (on
     * every replica: a transaction-scoped advisory lock), and then counts its live calls (at most {@code atMost}). Holding the lock while
     * inserting makes check and insert one step, so concurrent creations cannot pass the limit together.
     */
    public long lockAndCountLive(String orgId, int atMost) {
        getEntityManager()
                .createNativeQuery("select pg_advisory_xact_lock(hashtextextended(:key, 0))")
                .setParameter("key", "live-calls:" + orgId)
                .getSingleResult();
        // Counting stops at the limit: only "is there room" matters, so the step stays short however many are live.
        return ((Number) getEntityManager()
                .createNativeQuery("select count(*) from (select 1 from {h-schema}calls where org_id = :org"
                        + " and status <> 'ended' limit :atMost) live")
                .setParameter("org", orgId)
                .setParameter("atMost", atMost)
                .getSingleResult()).longValue();
    }

    /** Serialises openers of one carrier call (a retried inbound webhook) until the transaction ends. */
    public void lockCarrierCall(String orgId, String provider, String providerId) {
        getEntityManager()
                .createNativeQuery("select pg_advisory_xact_lock(hashtextextended(:key, 0))")
                .setParameter("key", "carrier-call:" + orgId + ":" + provider + ":" + providerId)
                .getSingleResult();
    }

    /** A call the sweeper should look at, by key. */
    public record Due(String orgId, UUID id) {
    }

    /**
     * Calls that need the sweeper, claimed ({@code FOR UPDATE SKIP LOCKED}) so that replicas sweeping at the same
     * time each take other calls: live calls past their maximum duration plus the grace, calls never answered
     * within the timeout, and ended calls whose end-of-call report is still missing after the grace.
     */
    @SuppressWarnings("unchecked")
    public List<Due> claimDue(Instant now, long graceSeconds, Instant unansweredBefore, Instant reportBefore, int limit) {
        List<Object[]> rows = getEntityManager().createNativeQuery("""
                select org_id, id from {h-schema}calls
                where (status <> 'ended' or not finalised)
                  and ((status in ('queued', 'ringing') and next_dial_at is null
                        and coalesce(dialled_at, created_at) < :unansweredBefore)
                    or (status in ('in-progress', 'forwarding')
                        and coalesce(started_at, created_at) + make_interval(secs => max_duration_seconds + :grace) < :now)
                    or (status = 'ended' and not finalised and ended_at < :reportBefore))
                order by created_at
                limit :limit
                for update skip locked
                """)
                .setParameter("unansweredBefore", unansweredBefore)
                .setParameter("grace", (double) graceSeconds)
                .setParameter("now", now)
                .setParameter("reportBefore", reportBefore)
                .setParameter("limit", limit)
                .getResultList();
        return rows.stream().map(row -> new Due((String) row[0], (UUID) row[1])).toList();
    }

    /**
     * Outbound calls whose next dial attempt is due, claimed ({@code FOR UPDATE SKIP LOCKED}) so that replicas
     * retrying at the same time each take other calls; the caller pushes {@code next_dial_at} forward (a lease) in
     * the same transaction, so a claimed attempt is not claimed again while it runs.
     */
    @SuppressWarnings("unchecked")
    public List<Due> claimDialsDue(Instant now, int limit) {
        List<Object[]> rows = getEntityManager().createNativeQuery("""
                select org_id, id from {h-schema}calls
                where next_dial_at <= :now and status = 'queued'
                order by next_dial_at
                limit :limit
                for update skip locked
                """)
                .setParameter("now", now)
                .setParameter("limit", limit)
                .getResultList();
        return rows.stream().map(row -> new Due((String) row[0], (UUID) row[1])).toList();
    }

    /**
     * Deletes a call with its server messages (outbox rows, delivered or not) and its Idempotency-Key (neither
     * table refers to the call by a foreign key) and, by cascade, its documents and events; in the caller's
     * transaction.
     */
    public void deleteCall(String orgId, UUID id) {
        getEntityManager().createNativeQuery("delete from {h-schema}call_outbox where org_id = :org and call_id = :id")
                .setParameter("org", orgId).setParameter("id", id).executeUpdate();
        getEntityManager()
                .createNativeQuery("delete from {h-schema}call_idempotency_keys where org_id = :org and call_id = :id")
                .setParameter("org", orgId).setParameter("id", id).executeUpdate();
        delete("orgId = :org and id = :id", Parameters.with("org", orgId).and("id", id));
    }
}
