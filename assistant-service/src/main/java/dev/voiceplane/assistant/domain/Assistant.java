package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.util.List;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A stored assistant: its validated configuration, as JSON text, in a jsonb column. */
@Entity
@Table(name = "assistants")
public class Assistant extends OrgScopedEntity {

    /** The assistant's fields as written (see {@code AssistantBody}); never the common fields. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String document;

    /** The public answer's fields, as written with the document; null: answered from the document. */
    @Column
    public String answer;

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<Assistant> ROWS = new RowMapper<>("assistants", List.of("document", "answer"),
            Assistant::new, (assistant, row, first) -> {
                assistant.document = row.getString(first);
                assistant.answer = row.getString(first + 1);
            });

    /** A list's rows: the answer, and the document only where there is no answer. */
    public static final RowMapper<Assistant> LIST_ROWS = new RowMapper<>("assistants",
            List.of("answer", "case when answer is null then document end"), Assistant::new,
            (assistant, row, first) -> {
                assistant.answer = row.getString(first);
                assistant.document = row.getString(first + 1);
            });

    /** What this row's sealed secrets are bound to: a ciphertext copied into another row does not open. */
    public String sealingContext() {
        return "assistant:" + orgId + ":" + id;
    }
}
