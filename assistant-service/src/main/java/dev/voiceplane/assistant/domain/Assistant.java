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

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<Assistant> ROWS = new RowMapper<>("assistants", List.of("document"), Assistant::new,
            (assistant, row, first) -> assistant.document = row.getString(first));

    /** What this row's sealed secrets are bound to: a ciphertext copied into another row does not open. */
    public String sealingContext() {
        return "assistant:" + orgId + ":" + id;
    }
}
