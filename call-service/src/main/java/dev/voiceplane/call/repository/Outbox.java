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

    /**
     * Numbers the message and stores it, in one statement: the call's counter ({@code calls.outbox_seq}) is
     * incremented by the database and the message takes the new value. The increment takes the call's row lock
     * and reads the row's newest committed version, so two transactions writing for one call are numbered one
     * after the other (the second waits for the first to end) however they read the call, and the order of
     * {@code seq} is the order the messages were committed in. The entity does not map the counter, so no flush
     * of a call read earlier can set it back.
     */
    public UUID add(String orgId, UUID callId, String type, String payload) {
        UUID id = Ids.newId();
        Instant now = Instant.now();
        int inserted = Panache.getEntityManager()
                .createNativeQuery("with numbered as (update {h-schema}calls set outbox_seq = outbox_seq + 1"
                        + " where org_id = :org and id = :call returning outbox_seq)"
                        + " insert into {h-schema}call_outbox"
                        + " (id, org_id, call_id, seq, message_type, payload, next_attempt_at, created_at)"
                        + " select :id, :org, :call, outbox_seq, :type, cast(:payload as jsonb), :now, :now from numbered")
                .setParameter("id", id)
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("type", type)
                .setParameter("payload", payload)
                .setParameter("now", now)
                .executeUpdate();
        if (inserted != 1) {
            throw new IllegalStateException("call " + callId + " is not stored: its server message has no number");
        }
        return id;
    }
}
