package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * A stored squad: its validated members, as JSON text, in a jsonb column. The stored assistants its members
 * name by id are also kept in {@code squad_member_assistants} (see {@code SquadRepository}).
 */
@Entity
@Table(name = "squads")
public class Squad extends AnsweredDocument {

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<Squad> ROWS = rows("squads", Squad::new);

    /** How a list's rows read, answers of the current {@code form} as they are (see {@link AnsweredDocument}). */
    public static RowMapper<Squad> listRows(long form) {
        return listRows("squads", Squad::new, form);
    }

    @Override
    public String sealingContext() {
        return "squad:" + orgId + ":" + id;
    }
}
