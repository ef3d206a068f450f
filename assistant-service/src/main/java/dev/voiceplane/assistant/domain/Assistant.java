package dev.voiceplane.assistant.domain;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
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

    /** What this row's sealed secrets are bound to: a ciphertext copied into another row does not open. */
    public String sealingContext() {
        return "assistant:" + orgId + ":" + id;
    }
}
