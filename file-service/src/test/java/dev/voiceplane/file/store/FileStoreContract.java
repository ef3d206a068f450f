package dev.voiceplane.file.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link FileStore} promises; each implementation's test runs these against a real server. */
public abstract class FileStoreContract {

    protected abstract FileStore store();

    /** Bytes over several of the PostgreSQL store's chunks, with a short last one. */
    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static String key() {
        return "contract/" + UUID.randomUUID();
    }

    private byte[] read(String key) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(store().copyTo(key, out), "stored bytes are found");
        return out.toByteArray();
    }

    @Test
    void whatIsWrittenIsReadBackExactly() throws IOException {
        for (int size : new int[] {1, 1000, 3 * 256 * 1024 + 17}) {
            String key = key();
            byte[] bytes = bytes(size);
            store().write(key, new ByteArrayInputStream(bytes), bytes.length);
            assertTrue(store().exists(key));
            assertArrayEquals(bytes, read(key));
        }
    }

    @Test
    void deleteRemovesTheBytesAndCanBeRepeated() throws IOException {
        String key = key();
        store().write(key, new ByteArrayInputStream(bytes(5000)), 5000);
        store().delete(key);
        assertFalse(store().exists(key));
        assertFalse(store().copyTo(key, new ByteArrayOutputStream()));
        store().delete(key);
        store().delete(key());
    }

    @Test
    void aSourceThatFailsHalfwayLeavesNothing() {
        String key = key();
        byte[] bytes = bytes(2 * 256 * 1024 + 10);
        InputStream failing = new FilterInputStream(new ByteArrayInputStream(bytes)) {
            private long read;

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (read > bytes.length / 2) {
                    throw new IOException("the client went away");
                }
                int n = super.read(buffer, offset, Math.min(length, 64 * 1024));
                read += Math.max(n, 0);
                return n;
            }

            @Override
            public int read() throws IOException {
                throw new IOException("the client went away");
            }
        };
        assertThrows(IOException.class, () -> store().write(key, failing, bytes.length));
        assertFalse(exists(key), "nothing is stored after a failed write");
    }

    @Test
    void aSourceShorterThanDeclaredLeavesNothing() {
        String key = key();
        byte[] bytes = bytes(1000);
        assertThrows(IOException.class, () -> store().write(key, new ByteArrayInputStream(bytes), 2000));
        assertFalse(exists(key));
    }

    @Test
    void unknownKeysHoldNothing() throws IOException {
        assertFalse(store().exists(key()));
        assertFalse(store().copyTo(key(), new ByteArrayOutputStream()));
    }

    private boolean exists(String key) {
        try {
            return store().exists(key);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
