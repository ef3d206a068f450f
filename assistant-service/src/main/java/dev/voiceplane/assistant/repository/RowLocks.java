package dev.voiceplane.assistant.repository;

import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The row locks that keep a reference and its deletion apart, for a table of organisation-owned rows: a delete
 * locks the row {@code FOR UPDATE}; a write that names rows locks them {@code FOR KEY SHARE}, which does not block a
 * change of them, only their deletion, until its transaction ends. Assistants (named by squads) and tools (named by
 * assistants) use them.
 */
final class RowLocks {

    private RowLocks() {
    }

    /** Locks the row for deletion; false when the organisation has no such row. */
    static boolean forDelete(EntityManager entities, String table, String orgId, UUID id) {
        return !entities
                .createNativeQuery("select id from {h-schema}" + table + " where org_id = :org and id = :id for update",
                        UUID.class)
                .setParameter("org", orgId)
                .setParameter("id", id)
                .getResultList()
                .isEmpty();
    }

    /** Which of these ids the organisation has, each kept from deletion until the transaction ends. */
    static Set<UUID> existing(EntityManager entities, String table, String orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        @SuppressWarnings("unchecked")
        List<UUID> found = entities
                .createNativeQuery("select id from {h-schema}" + table
                        + " where org_id = :org and id in (:ids) for key share", UUID.class)
                .setParameter("org", orgId)
                .setParameter("ids", ids)
                .getResultList();
        return Set.copyOf(found);
    }
}
