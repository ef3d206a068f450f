package dev.voiceplane.file.service;

import dev.voiceplane.file.domain.FileText;
import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.file.repository.BlobCleanupRepository;
import dev.voiceplane.file.repository.FileRepository;
import dev.voiceplane.file.repository.FileTextRepository;
import dev.voiceplane.kit.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.UUID;

/**
 * The short database transactions around the FileStore's writes and deletes (each its own transaction: no
 * connection or lock is held while bytes move).
 */
@ApplicationScoped
public class FileRecords {

    private final FileRepository files;
    private final FileTextRepository texts;
    private final BlobCleanupRepository cleanup;

    public FileRecords(FileRepository files, FileTextRepository texts, BlobCleanupRepository cleanup) {
        this.files = files;
        this.texts = texts;
        this.cleanup = cleanup;
    }

    /** Before bytes are written: if no row ever owns them, the sweep removes them after {@code purgeAfter}. */
    @Transactional
    public void expectBytes(String storageKey, Instant purgeAfter) {
        cleanup.add(storageKey, purgeAfter);
    }

    /** The row (and text) that owns bytes already written; from now on the bytes are the file's. */
    @Transactional
    public void create(StoredFile file, String text) {
        files.persist(file);
        if (text != null) {
            FileText stored = new FileText();
            stored.orgId = file.orgId;
            stored.id = file.id;
            stored.text = text;
            texts.persist(stored);
        }
        cleanup.remove(file.storageKey);
    }

    /** Bytes that were deleted from the store (or never written) need no cleanup any more. */
    @Transactional
    public void forget(String storageKey) {
        cleanup.remove(storageKey);
    }

    @Transactional
    public StoredFile rename(String orgId, UUID id, String name) {
        StoredFile file = files.findOwnedForChange(orgId, id).orElseThrow(FileRecords::notFound);
        if (name != null) {
            file.name = name;
            file.touch();
        }
        return file;
    }

    /**
     * Removes the row and its text, and in the same transaction marks its bytes for removal now: the caller deletes
     * them right after; if it cannot (or crashes), the sweep does.
     */
    @Transactional
    public StoredFile delete(String orgId, UUID id) {
        StoredFile file = files.findOwnedForChange(orgId, id).orElseThrow(FileRecords::notFound);
        texts.findOwned(orgId, id).ifPresent(texts::delete);
        files.delete(file);
        cleanup.add(file.storageKey, Instant.EPOCH);
        return file;
    }

    static ApiException notFound() {
        return ApiException.notFound("File");
    }
}
