package dev.voiceplane.file.store;

import dev.voiceplane.file.repository.BlobChunkRepository;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;

/** The store contract against the PostgreSQL store on the test database. */
@QuarkusTest
class PostgresFileStoreTest extends FileStoreContract {

    @Inject
    AgroalDataSource dataSource;

    @Override
    protected FileStore store() {
        return new PostgresFileStore(new BlobChunkRepository(dataSource));
    }
}
