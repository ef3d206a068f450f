package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.util.List;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A stored squad: its validated members, as JSON text, in a jsonb column. The stored assistants its members
 * name by id are also kept in {@code squad_member_assistants} (see {@code SquadRepository}).
 */
@Entity
@Table(name = "squads")
public class Squad extends OrgScopedEntity {

    /** The squad's fields as written (see {@code SquadBody}); never the common fields. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String document;

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<Squad> ROWS = new RowMapper<>("squads", List.of("document"), Squad::new,
            (squad, row, first) -> squad.document = row.getString(first));

    /** What this row's sealed secrets are bound to: a ciphertext copied into another row does not open. */
    public String sealingContext() {
        return "squad:" + orgId + ":" + id;
    }
}
