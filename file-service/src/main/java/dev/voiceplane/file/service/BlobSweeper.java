package dev.voiceplane.file.service;

import dev.voiceplane.file.repository.BlobCleanupRepository;
import dev.voiceplane.file.store.FileStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Deletes bytes that no file row owns: those of uploads that died between writing their bytes and their row
 * (after {@code voice.file.orphan-grace}) and those of deleted files whose bytes could not be removed at once.
 * Runs at start-up and every {@code voice.file.sweep-every}; several instances may sweep at once (each claims its
 * entries with {@code skip locked}, and deleting bytes twice is harmless).
 */
@ApplicationScoped
public class BlobSweeper {

    private static final Logger LOG = Logger.getLogger(BlobSweeper.class);
    private static final int BATCH = 100;

    private final BlobCleanupRepository cleanup;
    private final FileStore store;

    public BlobSweeper(BlobCleanupRepository cleanup, FileStore store) {
        this.cleanup = cleanup;
        this.store = store;
    }

    void onStart(@Observes StartupEvent started) {
        sweepSafely();
    }

    @Scheduled(every = "${voice.file.sweep-every}", delayed = "${voice.file.sweep-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        sweepSafely();
    }

    private void sweepSafely() {
        try {
            int removed = sweep();
            if (removed > 0) {
                LOG.infof("removed the bytes of %d unfinished uploads or deleted files", removed);
            }
        } catch (RuntimeException e) {
            LOG.warnf("the orphan sweep failed, it runs again later: %s", String.valueOf(e));
        }
    }

    /** One pass over every due entry; the number of entries whose bytes were removed. */
    public int sweep() {
        int removed = 0;
        while (true) {
            int batch = QuarkusTransaction.requiringNew().call(() -> {
                List<String> due = cleanup.claimDue(Instant.now(), BATCH);
                for (String key : due) {
                    store.delete(key);
                    cleanup.remove(key);
                }
                return due.size();
            });
            removed += batch;
            if (batch < BATCH) {
                return removed;
            }
        }
    }
}
