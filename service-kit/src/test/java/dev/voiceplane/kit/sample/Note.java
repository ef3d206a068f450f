package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** Test-only resource that exercises the kit the way a service does. */
@Entity
@Table(name = "notes")
public class Note extends OrgScopedEntity {
    public String text;
    public Integer priority;
    public java.math.BigDecimal weight;
}
