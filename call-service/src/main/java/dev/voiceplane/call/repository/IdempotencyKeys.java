package dev.voiceplane.call.repository;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** {@code Idempotency-Key}s of call creations, kept 24 hours. */
@ApplicationScoped
public class IdempotencyKeys {

    /** A key in use: the hash of the body it came with and the call it created. */
    public record Used(String requestHash, UUID callId) {
    }

    /** The key's use since {@code since}, if any. */
    public Optional<Used> find(String orgId, String key, Instant since) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = Panache.getEntityManager()
                .createNativeQuery("select request_hash, call_id from {h-schema}call_idempotency_keys"
                        + " where org_id = :org and key = :key and created_at >= :since")
                .setParameter("org", orgId)
                .setParameter("key", key)
                .setParameter("since", since)
                .getResultList();
        return rows.stream().findFirst().map(row -> new Used((String) row[0], (UUID) row[1]));
    }

    /**
     * Claims the key for a new call; empty when it was claimed, otherwise the use that holds it. A concurrent claim
     * of the same key waits for the first to commit (the primary key's uniqueness check) and then sees it. A use older
     * than {@code since} is replaced.
     */
    public Optional<Used> claim(String orgId, String key, String requestHash, UUID callId, Instant since) {
        int inserted = Panache.getEntityManager()
                .createNativeQuery("insert into {h-schema}call_idempotency_keys (org_id, key, request_hash, call_id, created_at)"
                        + " values (:org, :key, :hash, :call, :now)"
                        + " on conflict (org_id, key) do update set request_hash = excluded.request_hash,"
                        + " call_id = excluded.call_id, created_at = excluded.created_at"
                        + " where call_idempotency_keys.created_at < :since")
                .setParameter("org", orgId)
                .setParameter("key", key)
                .setParameter("hash", requestHash)
                .setParameter("call", callId)
                .setParameter("now", Instant.now())
                .setParameter("since", since)
                .executeUpdate();
        return inserted == 1 ? Optional.empty() : find(orgId, key, since);
    }
}
