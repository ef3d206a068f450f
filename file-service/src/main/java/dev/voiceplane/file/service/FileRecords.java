package dev.voiceplane.file.service;

import dev.voiceplane.file.domain.FileText;
import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.file.repository.BlobCleanupRepository;
import dev.voiceplane.file.repository.FileRepository;
import dev.voiceplane.file.repository.FileTextRepository;
import dev.voiceplane.file.repository.PassageRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * The short database transactions around the FileStore's writes and deletes, each its own
 * ({@code QuarkusTransaction.requiringNew()}, the project's one transaction rule): no connection or lock is held
 * while bytes move.
 */
@ApplicationScoped
public class FileRecords {

    static final String RESOURCE = "File";

    private final FileRepository files;
    private final FileTextRepository texts;
    private final BlobCleanupRepository cleanup;
    private final PassageRepository passages;

    public FileRecords(FileRepository files, FileTextRepository texts, BlobCleanupRepository cleanup,
            PassageRepository passages) {
        this.files = files;
        this.texts = texts;
        this.cleanup = cleanup;
        this.passages = passages;
    }

    /** Before bytes are written: if no row ever owns them, the sweep removes them after {@code purgeAfter}. */
    public void expectBytes(String storageKey, Instant purgeAfter) {
        QuarkusTransaction.requiringNew().run(() -> cleanup.add(storageKey, purgeAfter));
    }

    /**
     * The row (and text, and the text's passages for the knowledge-base search) that owns bytes already written;
     * from now on the bytes are the file's.
     */
    public void create(StoredFile file, String text) {
        QuarkusTransaction.requiringNew().run(() -> {
            files.persist(file);
            if (text != null) {
                FileText stored = new FileText();
                stored.orgId = file.orgId;
                stored.id = file.id;
                stored.text = text;
                texts.persist(stored);
                texts.flush();
                passages.insert(file.orgId, file.id, PassageCutter.cut(text));
            }
            cleanup.remove(file.storageKey);
        });
    }

    /** Bytes that were deleted from the store (or never written) need no cleanup any more. */
    public void forget(String storageKey) {
        QuarkusTransaction.requiringNew().run(() -> cleanup.remove(storageKey));
    }

    public StoredFile rename(String orgId, UUID id, String name) {
        return QuarkusTransaction.requiringNew().call(() -> {
            StoredFile file = files.requireOwnedForChange(orgId, id, RESOURCE);
            if (name != null) {
                file.name = name;
                file.touch();
            }
            return file;
        });
    }

    /**
     * Removes the row and its text (its passages go with the row: {@code on delete cascade}), and in the same transaction marks its bytes for removal now: the caller deletes
     * them right after; if it cannot (or crashes), the sweep does.
     */
    public StoredFile delete(String orgId, UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> {
            StoredFile file = files.requireOwnedForChange(orgId, id, RESOURCE);
            texts.findOwned(orgId, id).ifPresent(texts::delete);
            files.delete(file);
            cleanup.add(file.storageKey, Instant.EPOCH);
            return file;
        });
    }
}
