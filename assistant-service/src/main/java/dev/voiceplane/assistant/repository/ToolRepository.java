package dev.voiceplane.assistant.repository;

import dev.voiceplane.assistant.domain.StoredTool;
import dev.voiceplane.contracts.assistant.Tool;
import dev.voiceplane.kit.json.StoredJson;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

@ApplicationScoped
public class ToolRepository implements OrgScopedRepository<StoredTool> {

    private final RowMapper<StoredTool> listRows;

    public ToolRepository(StoredJson stored) {
        this.listRows = StoredTool.listRows(stored.form(Tool.class));
    }

    @Override
    public RowMapper<StoredTool> rows() {
        return StoredTool.ROWS;
    }

    /** A list answers each row's stored answer as it is, and reads the document only where it cannot. */
    @Override
    public RowMapper<StoredTool> listRows() {
        return listRows;
    }

    /** Locks the row for deletion ({@code FOR UPDATE}: waits for an assistant being written that names it). */
    public boolean lockForDelete(String orgId, UUID id) {
        return RowLocks.forDelete(getEntityManager(), "tools", orgId, id);
    }

    /** Like {@link #existing}, and keeps the found tools from being deleted until the transaction ends. */
    public Set<UUID> lockExisting(String orgId, Collection<UUID> ids) {
        return RowLocks.existing(getEntityManager(), "tools", orgId, ids);
    }

    /** The tools of the organisation among these ids, as stored: one query on the primary key. */
    @SuppressWarnings("unchecked")
    public List<StoredTool> owned(String orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return find("orgId = ?1 and id in ?2", orgId, ids).list();
    }

    /**
     * Records which stored tools the assistant's {@code model.toolIds} name, replacing what was recorded. The
     * assistant must have been written.
     */
    public void recordAssistantTools(String orgId, UUID assistantId, Collection<UUID> toolIds) {
        getEntityManager()
                .createNativeQuery("delete from {h-schema}assistant_tools where org_id = :org and assistant_id = :a")
                .setParameter("org", orgId)
                .setParameter("a", assistantId)
                .executeUpdate();
        if (toolIds.isEmpty()) {
            return;
        }
        getEntityManager()
                .createNativeQuery("insert into {h-schema}assistant_tools (org_id, assistant_id, tool_id)"
                        + " select org_id, :a, id from {h-schema}tools where org_id = :org and id in (:ids)")
                .setParameter("org", orgId)
                .setParameter("a", assistantId)
                .setParameter("ids", toolIds)
                .executeUpdate();
    }

    /** The assistants that name a tool: the first ones (by id) and how many there are in all. */
    public SquadRepository.Users assistantsUsing(String orgId, UUID toolId, int limit) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .createNativeQuery("select assistant_id, count(*) over () from {h-schema}assistant_tools"
                        + " where org_id = :org and tool_id = :tool order by assistant_id limit :limit", Object[].class)
                .setParameter("org", orgId)
                .setParameter("tool", toolId)
                .setParameter("limit", limit)
                .getResultList();
        List<UUID> first = rows.stream().map(row -> (UUID) row[0]).toList();
        long total = rows.isEmpty() ? 0 : ((Number) rows.getFirst()[1]).longValue();
        return new SquadRepository.Users(first, total);
    }
}
