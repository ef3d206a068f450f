package dev.voiceplane.call.repository;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/** Every event of a call, recorded once by its source's own key (carrier event id, runtime sequence). */
@ApplicationScoped
public class CallEvents {

    /**
     * Records the event; false when one with the same source and key was recorded already (then nothing is
     * written). A concurrent duplicate waits for the first to commit and then finds it.
     */
    public boolean record(String orgId, UUID callId, String source, String key, String type, String payload) {
        return Panache.getEntityManager()
                .createNativeQuery("insert into {h-schema}call_events"
                        + " (org_id, call_id, source, source_key, type, payload, applied, received_at)"
                        + " values (:org, :call, :source, :key, :type, cast(:payload as jsonb), false, :now)"
                        + " on conflict do nothing")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("source", source)
                .setParameter("key", key)
                .setParameter("type", type)
                .setParameter("payload", payload)
                .setParameter("now", Instant.now())
                .executeUpdate() == 1;
    }

    /** Marks a recorded event as the one that changed the call. */
    public void markApplied(String orgId, UUID callId, String source, String key) {
        Panache.getEntityManager()
                .createNativeQuery("update {h-schema}call_events set applied = true"
                        + " where org_id = :org and call_id = :call and source = :source and source_key = :key")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("source", source)
                .setParameter("key", key)
                .executeUpdate();
    }

    /** Whether any event of {@code source} was recorded for the call. */
    public boolean any(String orgId, UUID callId, String source) {
        return !Panache.getEntityManager()
                .createNativeQuery("select 1 from {h-schema}call_events"
                        + " where org_id = :org and call_id = :call and source = :source limit 1")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("source", source)
                .getResultList().isEmpty();
    }
}
