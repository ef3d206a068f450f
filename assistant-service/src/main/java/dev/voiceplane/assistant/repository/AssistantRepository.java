package dev.voiceplane.assistant.repository;

import dev.voiceplane.assistant.domain.Assistant;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
public class AssistantRepository implements OrgScopedRepository<Assistant> {

    @Override
    public RowMapper<Assistant> rows() {
        return Assistant.ROWS;
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
