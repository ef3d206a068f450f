package dev.voiceplane.call.repository;

import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The parts of a call that lists do not filter on and that may be large: the configuration frozen at creation
 * (secrets sealed) and the transcript messages, stored as an object keyed by the runtime's sequence number, so a
 * message delivered twice is stored once and messages arriving out of order still read in order.
 */
@ApplicationScoped
public class CallDocuments {

    /** A call's documents as stored (JSON text). */
    public record Stored(String configuration, String messages) {
    }

    public void insert(String orgId, UUID callId, String configuration) {
        em().createNativeQuery("insert into {h-schema}call_documents (org_id, call_id, configuration)"
                        + " values (:org, :call, cast(:configuration as jsonb))")
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .setParameter("configuration", configuration)
                .executeUpdate();
    }

    public Stored read(String orgId, UUID callId) {
        return readAll(orgId, List.of(callId)).get(callId);
    }

    /** The documents of several calls of one organisation, in one primary-key query. */
    public Map<UUID, Stored> readAll(String orgId, Collection<UUID> callIds) {
        Map<UUID, Stored> found = new HashMap<>();
        if (callIds.isEmpty()) {
            return found;
        }
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em().createNativeQuery("select call_id, cast(configuration as text), cast(messages as text)"
                        + " from {h-schema}call_documents where org_id = :org and call_id in (:ids)")
                .setParameter("org", orgId)
                .setParameter("ids", callIds)
                .getResultList();
        for (Object[] row : rows) {
            found.put((UUID) row[0], new Stored((String) row[1], (String) row[2]));
        }
        return found;
    }

    /** Adds one transcript message under its sequence number (a repeat replaces it with the same content). */
    public void putMessage(String orgId, UUID callId, long sequence, String message) {
        em().createNativeQuery("update {h-schema}call_documents"
                        + " set messages = messages || jsonb_build_object(cast(:seq as text), cast(:message as jsonb))"
                        + " where org_id = :org and call_id = :call")
                .setParameter("seq", Long.toString(sequence))
                .setParameter("message", message)
                .setParameter("org", orgId)
                .setParameter("call", callId)
                .executeUpdate();
    }

    private static EntityManager em() {
        return Panache.getEntityManager();
    }
}
