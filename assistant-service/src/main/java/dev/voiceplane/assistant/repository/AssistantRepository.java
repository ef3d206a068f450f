package dev.voiceplane.assistant.repository;

import dev.voiceplane.assistant.domain.Assistant;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.kit.json.StoredJson;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
public class AssistantRepository implements OrgScopedRepository<Assistant> {

    private final RowMapper<Assistant> listRows;

    public AssistantRepository(StoredJson stored) {
        this.listRows = Assistant.listRows(stored.form(AssistantBody.class));
    }

    @Override
    public RowMapper<Assistant> rows() {
        return Assistant.ROWS;
    }

    /** A list answers each row's stored answer as it is, and reads the document only where it cannot. */
    @Override
    public RowMapper<Assistant> listRows() {
        return listRows;
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
