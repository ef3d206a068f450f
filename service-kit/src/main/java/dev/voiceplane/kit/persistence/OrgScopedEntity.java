package dev.voiceplane.kit.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.MappedSuperclass;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * The common fields of every stored resource: {@code id}, {@code orgId}, {@code createdAt},
 * {@code updatedAt}. The key is {@code (org_id, id)}: a lookup is always scoped to the caller's organisation.
 */
@MappedSuperclass
@IdClass(OrgScopedId.class)
public abstract class OrgScopedEntity extends PanacheEntityBase {

    @Id
    @Column(name = "org_id", nullable = false, updatable = false)
    public String orgId;

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Stamps a new resource for an organisation; assigns a fresh time-ordered id unless one is given. */
    public void stampCreated(String orgId, UUID givenId) {
        Instant now = now();
        this.orgId = orgId;
        this.id = givenId != null ? givenId : Ids.newId();
        this.createdAt = now;
        this.updatedAt = now;
    }

    /** Marks a change: {@code updatedAt} strictly advances, even within the same millisecond. */
    public void touch() {
        Instant now = now();
        this.updatedAt = updatedAt != null && !now.isAfter(updatedAt) ? updatedAt.plusMillis(1) : now;
    }

    /** Wall-clock time at the precision the API shows (milliseconds). */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
