package dev.voiceplane.file.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.file.store.FileStore;
import dev.voiceplane.kit.testing.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A crash between writing the bytes and the row leaves a cleanup entry behind: the sweep removes those bytes once
 * the grace period is over, and leaves an upload still within it alone.
 */
@QuarkusTest
class BlobSweeperTest {

    @Inject
    FileRecords records;

    @Inject
    FileStore store;

    @Inject
    BlobSweeper sweeper;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void bytesWithoutARowAreRemovedAfterTheGracePeriod() throws Exception {
        String crashed = "org-a/" + UUID.randomUUID();
        String inFlight = "org-a/" + UUID.randomUUID();
        byte[] bytes = "half an upload".getBytes();
        // What an upload that died after its bytes were written leaves behind (the step before its row).
        records.expectBytes(crashed, Instant.now().minus(1, ChronoUnit.MINUTES));
        store.write(crashed, new ByteArrayInputStream(bytes), bytes.length);
        // An upload still running: its grace period has not passed.
        records.expectBytes(inFlight, Instant.now().plus(1, ChronoUnit.HOURS));
        store.write(inFlight, new ByteArrayInputStream(bytes), bytes.length);

        assertTrue(sweeper.sweep() >= 1);

        assertFalse(store.exists(crashed), "orphan bytes removed");
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from file.blob_cleanup where storage_key = ?", crashed));
        assertTrue(store.exists(inFlight), "an upload in progress keeps its bytes");
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from file.blob_cleanup where storage_key = ?", inFlight));
        // Tidy: the in-flight entry would be swept an hour from now.
        store.delete(inFlight);
        records.forget(inFlight);
    }
}
