package dev.voiceplane.assistant.repository;

import dev.voiceplane.assistant.domain.Assistant;
import dev.voiceplane.kit.persistence.OrgScopedId;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
public class AssistantRepository implements PanacheRepositoryBase<Assistant, OrgScopedId> {

    /** One primary-key lookup, scoped to the organisation. */
    public Optional<Assistant> findOwned(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id));
    }

    /** The same, holding the row until the transaction ends so that concurrent PATCHes apply one after the other. */
    public Optional<Assistant> findOwnedForChange(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id), LockModeType.PESSIMISTIC_WRITE);
    }

    /**
     * Locks the row for deletion ({@code FOR UPDATE}, which waits for a squad being written with this assistant
     * as a member, see {@link #lockExisting}); false when there is no such assistant.
     */
    public boolean lockForDelete(String orgId, UUID id) {
        return !getEntityManager()
                .createNativeQuery("select id from {h-schema}assistants where org_id = :org and id = :id for update",
                        UUID.class)
                .setParameter("org", orgId)
                .setParameter("id", id)
                .getResultList()
                .isEmpty();
    }

    /** Which of these ids are assistants of the organisation: one query on the primary key, however many ids. */
    public Set<UUID> existing(String orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        List<UUID> found = getEntityManager()
                .createQuery("select a.id from Assistant a where a.orgId = :org and a.id in :ids", UUID.class)
                .setParameter("org", orgId)
                .setParameter("ids", ids)
                .getResultList();
        return Set.copyOf(found);
    }

    /**
     * Like {@link #existing}, and keeps the found assistants from being deleted until the transaction ends
     * ({@code FOR KEY SHARE}: it does not block a PATCH of them, only a delete).
     */
    public Set<UUID> lockExisting(String orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        @SuppressWarnings("unchecked")
        List<UUID> found = getEntityManager()
                .createNativeQuery("select id from {h-schema}assistants"
                        + " where org_id = :org and id in (:ids) for key share", UUID.class)
                .setParameter("org", orgId)
                .setParameter("ids", ids)
                .getResultList();
        return Set.copyOf(found);
    }
}
