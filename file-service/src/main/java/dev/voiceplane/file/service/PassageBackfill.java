package dev.voiceplane.file.service;

import dev.voiceplane.file.repository.PassageRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Cuts into passages the texts stored before the knowledge-base search existed (migration V3 marks them
 * {@code passages_cut = false}), at start-up, a batch per transaction. The migration could not do it itself: the
 * cut is Java's ({@link PassageCutter}, the same as an upload's), and a whole text as one passage could exceed what a
 * tsvector holds. Several instances may start at once: each claims its batch with {@code skip locked}. A start-up
 * that fails here logs it and serves anyway (those files are simply not found yet); the next start goes on.
 */
@ApplicationScoped
public class PassageBackfill {

    private static final Logger LOG = Logger.getLogger(PassageBackfill.class);
    private static final int BATCH = 20;

    private final PassageRepository passages;

    public PassageBackfill(PassageRepository passages) {
        this.passages = passages;
    }

    void onStart(@Observes StartupEvent started) {
        try {
            int cut = run();
            if (cut > 0) {
                LOG.infof("cut the texts of %d files stored before the knowledge-base search into passages", cut);
            }
        } catch (RuntimeException e) {
            LOG.warnf("the passage backfill failed, the next start goes on: %s", String.valueOf(e));
        }
    }

    /** Cuts every text not cut yet; the number of texts cut. */
    public int run() {
        int total = 0;
        while (true) {
            int batch = QuarkusTransaction.requiringNew().call(() -> {
                List<Object[]> uncut = passages.claimUncut(BATCH);
                for (Object[] row : uncut) {
                    String orgId = (String) row[0];
                    UUID id = (UUID) row[1];
                    passages.insert(orgId, id, PassageCutter.cut((String) row[2]));
                    passages.markCut(orgId, id);
                }
                return uncut.size();
            });
            total += batch;
            if (batch < BATCH) {
                return total;
            }
        }
    }
}
