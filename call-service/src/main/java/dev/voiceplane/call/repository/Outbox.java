package dev.voiceplane.call.repository;

import dev.voiceplane.kit.persistence.Ids;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * The server messages of calls, written in the transaction that changed the call; their delivery (target,
 * signature, retries) is the delivery worker's (issue 12). {@code seq} orders the messages of one call.
 */
@ApplicationScoped
public class Outbox {

    public UUID add(String orgId, UUID callId, int seq, String type, String payload) {
        UUID id = Ids.newId();
        Instant now = Instant.now();
        Panache.getEntityManager()
                .createNativeQuery("insert into {h-schema}call_outbox"
                        + " (id, org_id, call_id, seq, message_type, payload, next_attempt_at, created_at)"
                        + " values (:id, :org, :call, :seq, :type, cast(:payload as jsonb), :now, :now)")
                .setParameter("id", id)
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("seq", seq)
                .setParameter("type", type)
                .setParameter("payload", payload)
                .setParameter("now", now)
                .executeUpdate();
        return id;
    }
}
