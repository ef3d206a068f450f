package dev.voiceplane.file.store;

import dev.voiceplane.file.repository.BlobChunkRepository;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Bytes in the service's own schema, table {@code blob_chunks} ({@link BlobChunkRepository}), in chunks of
 * {@value #CHUNK} bytes: a write inserts one chunk at a time in one transaction (all or nothing), a read selects one
 * chunk at a time, so memory holds one chunk whatever the file size. The chunks are written on connections of their
 * own, outside any JTA transaction, so a write commits or rolls back on its own.
 */
public class PostgresFileStore implements FileStore {

    static final int CHUNK = 256 * 1024;
    private static final String BUCKET = "files";

    private final BlobChunkRepository chunks;

    public PostgresFileStore(BlobChunkRepository chunks) {
        this.chunks = chunks;
    }

    @Override
    public String bucket() {
        return BUCKET;
    }

    @Override
    public void write(String key, InputStream source, long size) throws IOException {
        byte[] buffer = new byte[CHUNK];
        long[] written = {0};
        chunks.insert(key, () -> {
            int read = source.readNBytes(buffer, 0, CHUNK);
            if (read == 0) {
                // Checked before the commit: a source shorter or longer than declared stores nothing.
                if (written[0] != size) {
                    throw new IOException("expected " + size + " bytes for " + key + ", read " + written[0]);
                }
                return null;
            }
            written[0] += read;
            return read == CHUNK ? buffer : Arrays.copyOf(buffer, read);
        });
    }

    @Override
    public boolean copyTo(String key, OutputStream target) throws IOException {
        // One short query per chunk: no connection is held while the client reads slowly.
        for (int seq = 0; ; seq++) {
            byte[] chunk = chunks.chunk(key, seq);
            if (chunk == null) {
                return seq > 0;
            }
            target.write(chunk);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        chunks.delete(key);
    }

    @Override
    public boolean exists(String key) throws IOException {
        return chunks.exists(key);
    }
}
