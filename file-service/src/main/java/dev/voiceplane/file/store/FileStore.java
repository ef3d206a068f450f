package dev.voiceplane.file.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Where the bytes of files live, chosen by {@code voice.file.store}: {@code postgres} ({@link PostgresFileStore}, the
 * default) or {@code s3} ({@link S3FileStore}). Every operation streams: no implementation holds a whole file in
 * memory. Keys are opaque to the store; callers make them unique.
 */
public interface FileStore {

    /** The bucket a file's {@code bucket} field names. */
    String bucket();

    /**
     * Stores exactly {@code size} bytes read from {@code source} under {@code key}. All or nothing: when this throws,
     * nothing is stored under the key.
     */
    void write(String key, InputStream source, long size) throws IOException;

    /** Copies the bytes stored under {@code key} to {@code target}; false when nothing is stored under it. */
    boolean copyTo(String key, OutputStream target) throws IOException;

    /** Removes whatever is stored under {@code key}; nothing stored is not an error (deletes are retried). */
    void delete(String key) throws IOException;

    /** Whether bytes are stored under {@code key}. */
    boolean exists(String key) throws IOException;
}
