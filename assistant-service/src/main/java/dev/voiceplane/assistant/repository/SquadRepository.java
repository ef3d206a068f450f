package dev.voiceplane.assistant.repository;

import dev.voiceplane.assistant.domain.Squad;
import dev.voiceplane.contracts.assistant.SquadBody;
import dev.voiceplane.kit.json.StoredJson;
import dev.voiceplane.kit.persistence.OrgScopedRepository;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class SquadRepository implements OrgScopedRepository<Squad> {

    private final RowMapper<Squad> listRows;

    public SquadRepository(StoredJson stored) {
        this.listRows = Squad.listRows(stored.form(SquadBody.class));
    }

    @Override
    public RowMapper<Squad> rows() {
        return Squad.ROWS;
    }

    /** A list answers each row's stored answer as it is, and reads the document only where it cannot. */
    @Override
    public RowMapper<Squad> listRows() {
        return listRows;
    }

    /**
     * Records which stored assistants the squad's members name, replacing what was recorded: two statements
     * whatever the number of members. The squad must have been flushed.
     */
    public void recordMemberAssistants(String orgId, UUID squadId, Collection<UUID> assistantIds) {
        getEntityManager()
                .createNativeQuery("delete from {h-schema}squad_member_assistants"
                        + " where org_id = :org and squad_id = :squad")
                .setParameter("org", orgId)
                .setParameter("squad", squadId)
                .executeUpdate();
        if (assistantIds.isEmpty()) {
            return;
        }
        getEntityManager()
                .createNativeQuery("insert into {h-schema}squad_member_assistants (org_id, squad_id, assistant_id)"
                        + " select org_id, :squad, id from {h-schema}assistants where org_id = :org and id in (:ids)")
                .setParameter("org", orgId)
                .setParameter("squad", squadId)
                .setParameter("ids", assistantIds)
                .executeUpdate();
    }

    /** The squads whose members name an assistant: the first ones (oldest first) and how many there are in all. */
    public record Users(List<UUID> first, long total) {
    }

    /** Squads of the organisation whose members name this assistant: one query on the membership index. */
    public Users squadsUsing(String orgId, UUID assistantId, int limit) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .createNativeQuery("select squad_id, count(*) over () from {h-schema}squad_member_assistants"
                        + " where org_id = :org and assistant_id = :assistant order by squad_id limit :limit",
                        Object[].class)
                .setParameter("org", orgId)
                .setParameter("assistant", assistantId)
                .setParameter("limit", limit)
                .getResultList();
        List<UUID> first = rows.stream().map(row -> (UUID) row[0]).toList();
        long total = rows.isEmpty() ? 0 : ((Number) rows.getFirst()[1]).longValue();
        return new Users(first, total);
    }
}
