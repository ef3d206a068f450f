package dev.voiceplane.file.repository;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.List;

/**
 * The {@code blob_cleanup} entries: storage keys whose bytes may be in the FileStore without a file row. An entry
 * is written (and committed) before bytes are, and removed once the row that owns them is committed or the bytes
 * are deleted; the sweep deletes the bytes of entries whose {@code purge_after} has passed.
 */
@ApplicationScoped
public class BlobCleanupRepository {

    private final EntityManager entityManager;

    public BlobCleanupRepository(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    public void add(String storageKey, Instant purgeAfter) {
        entityManager.createNativeQuery("insert into {h-schema}blob_cleanup (storage_key, purge_after) values (:key, :at)"
                        + " on conflict (storage_key) do update set purge_after = excluded.purge_after")
                .setParameter("key", storageKey)
                .setParameter("at", purgeAfter)
                .executeUpdate();
    }

    public void remove(String storageKey) {
        entityManager.createNativeQuery("delete from {h-schema}blob_cleanup where storage_key = :key")
                .setParameter("key", storageKey)
                .executeUpdate();
    }

    /**
     * Up to {@code limit} entries that are due, locked so that two instances sweeping at once take different ones
     * ({@code skip locked}).
     */
    @SuppressWarnings("unchecked")
    public List<String> claimDue(Instant now, int limit) {
        return entityManager.createNativeQuery("select storage_key from {h-schema}blob_cleanup where purge_after <= :now"
                        + " order by purge_after limit :limit for update skip locked", String.class)
                .setParameter("now", now)
                .setParameter("limit", limit)
                .getResultList();
    }
}
