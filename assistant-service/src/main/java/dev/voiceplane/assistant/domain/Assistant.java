package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A stored assistant: its validated configuration, as JSON text, in a jsonb column. */
@Entity
@Table(name = "assistants")
public class Assistant extends AnsweredDocument {

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<Assistant> ROWS = rows("assistants", Assistant::new);

    /** How a list's rows read, answers of the current {@code form} as they are (see {@link AnsweredDocument}). */
    public static RowMapper<Assistant> listRows(long form) {
        return listRows("assistants", Assistant::new, form);
    }

    @Override
    public String sealingContext() {
        return "assistant:" + orgId + ":" + id;
    }
}
