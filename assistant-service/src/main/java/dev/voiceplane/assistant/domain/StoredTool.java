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
 * A stored tool ({@code /tool}): its validated body, as JSON text, in a jsonb column. The assistants whose
 * {@code model.toolIds} name it are kept in {@code assistant_tools} (see {@code ToolRepository}).
 */
@Entity(name = "StoredTool")
@Table(name = "tools")
public class StoredTool extends OrgScopedEntity {

    /** The tool's fields as written (see the kit's {@code Tool}); never the common fields. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String document;

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<StoredTool> ROWS = new RowMapper<>("tools", List.of("document"), StoredTool::new,
            (tool, row, first) -> tool.document = row.getString(first));

    /** What this row's sealed secret is bound to: a ciphertext copied into another row does not open. */
    public String sealingContext() {
        return "tool:" + orgId + ":" + id;
    }
}
