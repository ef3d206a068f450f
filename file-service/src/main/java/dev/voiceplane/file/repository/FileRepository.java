package dev.voiceplane.file.repository;

import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.kit.persistence.OrgScopedId;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Files, always looked up with the caller's organisation (the key is {@code (org_id, id)}). Written against
 * Panache's base so that it can move onto the kit's organisation-scoped repository base unchanged.
 */
@ApplicationScoped
public class FileRepository implements PanacheRepositoryBase<StoredFile, OrgScopedId> {

    public Optional<StoredFile> findOwned(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id));
    }

    /** The same, holding the row until the transaction ends, so that a PATCH and a DELETE apply one after the other. */
    public Optional<StoredFile> findOwnedForChange(String orgId, UUID id) {
        return findByIdOptional(new OrgScopedId(orgId, id), LockModeType.PESSIMISTIC_WRITE);
    }

    /** Which of {@code ids} are files of the organisation: one query. */
    public Set<UUID> existing(String orgId, Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        List<UUID> found = getEntityManager()
                .createQuery("select f.id from StoredFile f where f.orgId = :org and f.id in :ids", UUID.class)
                .setParameter("org", orgId)
                .setParameter("ids", ids)
                .getResultList();
        return Set.copyOf(found);
    }
}
