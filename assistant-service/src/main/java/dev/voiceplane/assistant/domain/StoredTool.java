package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.RowMapper;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * A stored tool ({@code /tool}): its validated body, as JSON text, in a jsonb column. The assistants whose
 * {@code model.toolIds} name it are kept in {@code assistant_tools} (see {@code ToolRepository}).
 */
@Entity(name = "StoredTool")
@Table(name = "tools")
public class StoredTool extends AnsweredDocument {

    /** How its rows read without the ORM (reads outside a transaction, see the kit's {@code PlainReads}). */
    public static final RowMapper<StoredTool> ROWS = rows("tools", StoredTool::new);

    /** How a list's rows read, answers of the current {@code form} as they are (see {@link AnsweredDocument}). */
    public static RowMapper<StoredTool> listRows(long form) {
        return listRows("tools", StoredTool::new, form);
    }

    @Override
    public String sealingContext() {
        return "tool:" + orgId + ":" + id;
    }
}
