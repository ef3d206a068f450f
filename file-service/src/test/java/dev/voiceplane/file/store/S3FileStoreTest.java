package dev.voiceplane.file.store;

import dev.voiceplane.file.S3ProxyServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract against a real S3-compatible server (S3Proxy, in its own process). */
class S3FileStoreTest extends FileStoreContract {

    private static S3FileStore store;

    @BeforeAll
    static void start() {
        String endpoint = S3ProxyServer.endpoint();
        store = new S3FileStore(S3ProxyServer.client(endpoint), S3ProxyServer.BUCKET);
    }

    @AfterAll
    static void stop() {
        store.close();
    }

    @Override
    protected FileStore store() {
        return store;
    }
}
