package dev.voiceplane.assistant.repository;

import dev.voiceplane.assistant.domain.Assistant;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
public class AssistantRepository implements OrgScopedRepository<Assistant> {

    @Override
    public RowMapper<Assistant> rows() {
        return Assistant.ROWS;
    }

    /** A list answers each row's stored answer; the document only where there is none. */
    @Override
    public RowMapper<Assistant> listRows() {
        return Assistant.LIST_ROWS;
    }

    /**
     * Locks the row for deletion ({@code FOR UPDATE}, which waits for a squad being written with this assistant
     * as a member, see {@link #lockExisting}); false when there is no such assistant.
     */
    public boolean lockForDelete(String orgId, UUID id) {
        return RowLocks.forDelete(getEntityManager(), "assistants", orgId, id);
    }

    /**
     * Like {@link #existing}, and keeps the found assistants from being deleted until the transaction ends
     * ({@code FOR KEY SHARE}: it does not block a PATCH of them, only a delete).
     */
    public Set<UUID> lockExisting(String orgId, Collection<UUID> ids) {
        return RowLocks.existing(getEntityManager(), "assistants", orgId, ids);
    }
}
