package dev.voiceplane.file.recording;

import dev.voiceplane.file.api.FileView;
import dev.voiceplane.file.domain.StoredFile;
import dev.voiceplane.file.service.FileNames;
import dev.voiceplane.file.service.FileRecords;
import dev.voiceplane.file.service.FileSettings;
import dev.voiceplane.file.store.FileStore;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Recordings the voice runtime streams in while a call goes on (docs/files.md, "Recordings"). An upload is started
 * with its format, takes its audio in numbered parts (each at most {@code voice.file.recording.max-part}, received
 * whole and stored as one row), and is completed once: the WAV header — whose sizes are known only then — and the
 * parts are streamed into the FileStore one part at a time, and the file row is written. A call that never completes
 * (the runtime died) leaves no file: nothing is readable before completion, so no truncated recording can pass for a
 * whole one, and the sweep removes its parts after {@code voice.file.recording.abandon-after}.
 *
 * <p>Plain JDBC on the service's own connections: a part's append locks its upload row ({@code for update}) so the
 * parts stay in order under retries; completion holds that lock while it copies, so a repeated completion waits and
 * then answers the same file.
 */
@ApplicationScoped
public class RecordingUploads {

    private static final Logger LOG = Logger.getLogger(RecordingUploads.class);
    static final String RESOURCE = "Recording upload";
    private static final Set<Integer> RATES = Set.of(8000, 16000, 24000);

    private final AgroalDataSource dataSource;
    private final FileStore store;
    private final FileRecords records;
    private final FileSettings settings;
    private final int maxPart;
    private final long maxSize;
    private final Duration abandonAfter;

    public RecordingUploads(AgroalDataSource dataSource, FileStore store, FileRecords records, FileSettings settings,
            @ConfigProperty(name = "voice.file.recording.max-part") MemorySize maxPart,
            @ConfigProperty(name = "voice.file.recording.max-size") MemorySize maxSize,
            @ConfigProperty(name = "voice.file.recording.abandon-after") Duration abandonAfter) {
        this.dataSource = dataSource;
        this.store = store;
        this.records = records;
        this.settings = settings;
        this.maxPart = (int) Math.min(Integer.MAX_VALUE, maxPart.asLongValue());
        this.maxSize = Math.min(Wav.MAX_DATA, maxSize.asLongValue());
        this.abandonAfter = abandonAfter;
    }

    public RecordingUploadView start(String orgId, RecordingStart body) {
        if (body.channels() != 1 && body.channels() != 2) {
            throw ApiException.invalid("channels must be 1 or 2");
        }
        if (!RATES.contains(body.sampleRate())) {
            throw ApiException.invalid("sampleRate must be one of 8000, 16000, 24000");
        }
        String name = FileNames.original(body.name());
        UUID id = dev.voiceplane.kit.persistence.Ids.newId();
        Instant now = OrgScopedEntity.now();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("insert into file.recording_uploads "
                        + "(org_id, id, name, channels, sample_rate, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, orgId);
            insert.setObject(2, id);
            insert.setString(3, name);
            insert.setShort(4, body.channels().shortValue());
            insert.setInt(5, body.sampleRate());
            insert.setTimestamp(6, Timestamp.from(now));
            insert.setTimestamp(7, Timestamp.from(now));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start a recording upload", e);
        }
        return new RecordingUploadView(id.toString(), 0, 0);
    }

    /**
     * Appends part {@code seq}: it must be the next one; a part already stored (a retry) changes nothing and answers
     * the upload as it is.
     */
    public RecordingUploadView append(String orgId, UUID id, int seq, byte[] audio) {
        if (audio == null || audio.length == 0) {
            throw ApiException.invalid("a part holds audio: the body is empty");
        }
        if (audio.length > maxPart) {
            throw ApiException.tooLarge("a part is at most " + maxPart + " bytes");
        }
        return inTransaction(connection -> {
            Upload upload = lock(connection, orgId, id);
            if (upload.fileId() != null) {
                throw ApiException.conflict("the recording is complete: it takes no more parts");
            }
            if (audio.length % (2 * upload.channels()) != 0) {
                throw ApiException.invalid("a part holds whole frames of 16-bit samples (" + 2 * upload.channels()
                        + " bytes each for " + upload.channels() + " channel(s)), not " + audio.length + " bytes");
            }
            if (seq < upload.parts()) {
                return upload.view();
            }
            if (seq > upload.parts()) {
                throw ApiException.conflict("part " + upload.parts() + " is expected next, not part " + seq);
            }
            if (upload.bytes() + audio.length > maxSize) {
                throw ApiException.tooLarge("the recording is too large (at most " + maxSize + " bytes)");
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into file.recording_parts (org_id, upload_id, seq, data) values (?, ?, ?, ?)");
                    PreparedStatement update = connection.prepareStatement("update file.recording_uploads set "
                            + "parts = parts + 1, bytes = bytes + ?, updated_at = ? where org_id = ? and id = ?")) {
                insert.setString(1, orgId);
                insert.setObject(2, id);
                insert.setInt(3, seq);
                insert.setBytes(4, audio);
                insert.executeUpdate();
                update.setLong(1, audio.length);
                update.setTimestamp(2, Timestamp.from(Instant.now()));
                update.setString(3, orgId);
                update.setObject(4, id);
                update.executeUpdate();
            }
            return new RecordingUploadView(id.toString(), upload.parts() + 1, upload.bytes() + audio.length);
        });
    }

    /**
     * Writes the recording as a WAV file and answers it; a repeated completion answers the same file. The bytes go to
     * the FileStore first (under a cleanup entry, as every upload's), then, in one transaction, the file row, the
     * upload's link to it and the removal of its parts.
     */
    public FileView complete(String orgId, UUID id) {
        return inTransaction(connection -> {
            Upload upload = lock(connection, orgId, id);
            if (upload.fileId() != null) {
                return existing(connection, orgId, upload.fileId());
            }
            StoredFile file = new StoredFile();
            file.stampCreated(orgId, null);
            file.originalName = upload.name();
            file.name = FileNames.name(upload.name());
            file.bytes = Wav.HEADER + upload.bytes();
            file.mimetype = "audio/wav";
            file.status = StoredFile.NOT_INDEXED;
            file.bucket = store.bucket();
            file.storageKey = orgId + "/" + file.id;
            records.expectBytes(file.storageKey, Instant.now().plus(settings.orphanGrace()));
            try (InputStream wav = new SequenceInputStream(
                    new ByteArrayInputStream(Wav.header(upload.channels(), upload.sampleRate(), upload.bytes())),
                    new PartsStream(orgId, id, upload.parts()))) {
                store.write(file.storageKey, wav, file.bytes);
                insertFile(connection, file, id);
            } catch (IOException e) {
                discard(file.storageKey);
                throw new UncheckedIOException("cannot store the recording", e);
            } catch (SQLException | RuntimeException e) {
                discard(file.storageKey);
                throw e;
            }
            LOG.debugf("recording upload %s completed as file %s (%d bytes)", id, file.id, file.bytes);
            return FileView.of(file, settings.publicUrl());
        });
    }

    /** Bytes written for a completion that failed; if they cannot go now, the cleanup entry makes the sweep do it. */
    private void discard(String storageKey) {
        try {
            store.delete(storageKey);
            records.forget(storageKey);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("could not remove %s now, the sweep will: %s", storageKey, String.valueOf(e));
        }
    }

    /** Discards an upload that will not be completed (its parts go with it). */
    public RecordingUploadView abandon(String orgId, UUID id) {
        return inTransaction(connection -> {
            Upload upload = lock(connection, orgId, id);
            if (upload.fileId() != null) {
                throw ApiException.conflict("the recording is complete: delete its file instead");
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "delete from file.recording_uploads where org_id = ? and id = ?")) {
                delete.setString(1, orgId);
                delete.setObject(2, id);
                delete.executeUpdate();
            }
            return upload.view();
        });
    }

    /** Removes uploads untouched for {@code abandon-after}: abandoned mid-call, or completed long ago. */
    @Scheduled(every = "${voice.file.sweep-every}", delayed = "${voice.file.sweep-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledSweep() {
        try {
            int removed = sweep(Instant.now().minus(abandonAfter));
            if (removed > 0) {
                LOG.infof("removed %d recording uploads untouched since before %s", removed, abandonAfter);
            }
        } catch (RuntimeException e) {
            LOG.warnf("the recording upload sweep failed, it runs again later: %s", String.valueOf(e));
        }
    }

    /** Removes every upload last touched before {@code before}; how many. */
    public int sweep(Instant before) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "delete from file.recording_uploads where updated_at < ?")) {
            delete.setTimestamp(1, Timestamp.from(before));
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot sweep recording uploads", e);
        }
    }

    // ---- rows ----------------------------------------------------------------------------------------------------

    private record Upload(UUID id, String name, int channels, int sampleRate, int parts, long bytes, UUID fileId) {
        RecordingUploadView view() {
            return new RecordingUploadView(id.toString(), parts, bytes);
        }
    }

    private static Upload lock(Connection connection, String orgId, UUID id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select name, channels, sample_rate, parts, bytes, "
                + "file_id from file.recording_uploads where org_id = ? and id = ? for update")) {
            select.setString(1, orgId);
            select.setObject(2, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw ApiException.notFound(RESOURCE);
                }
                return new Upload(id, row.getString(1), row.getShort(2), row.getInt(3), row.getInt(4), row.getLong(5),
                        row.getObject(6, UUID.class));
            }
        }
    }

    private FileView existing(Connection connection, String orgId, UUID fileId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select name, original_name, bytes, mimetype, "
                + "status, bucket, storage_key, created_at, updated_at from file.files where org_id = ? and id = ?")) {
            select.setString(1, orgId);
            select.setObject(2, fileId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    // Completed, then its file was deleted: the recording is gone.
                    throw ApiException.notFound(RESOURCE);
                }
                StoredFile file = new StoredFile();
                file.orgId = orgId;
                file.id = fileId;
                file.name = row.getString(1);
                file.originalName = row.getString(2);
                file.bytes = row.getLong(3);
                file.mimetype = row.getString(4);
                file.status = row.getString(5);
                file.bucket = row.getString(6);
                file.storageKey = row.getString(7);
                file.createdAt = row.getTimestamp(8).toInstant();
                file.updatedAt = row.getTimestamp(9).toInstant();
                return FileView.of(file, settings.publicUrl());
            }
        }
    }

    private static void insertFile(Connection connection, StoredFile file, UUID uploadId) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("insert into file.files (org_id, id, name, "
                + "original_name, bytes, mimetype, status, bucket, storage_key, created_at, updated_at) "
                + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement forget = connection.prepareStatement(
                        "delete from file.blob_cleanup where storage_key = ?");
                PreparedStatement link = connection.prepareStatement("update file.recording_uploads set file_id = ?, "
                        + "updated_at = ? where org_id = ? and id = ?");
                PreparedStatement parts = connection.prepareStatement(
                        "delete from file.recording_parts where org_id = ? and upload_id = ?")) {
            insert.setString(1, file.orgId);
            insert.setObject(2, file.id);
            insert.setString(3, file.name);
            insert.setString(4, file.originalName);
            insert.setLong(5, file.bytes);
            insert.setString(6, file.mimetype);
            insert.setString(7, file.status);
            insert.setString(8, file.bucket);
            insert.setString(9, file.storageKey);
            insert.setTimestamp(10, Timestamp.from(file.createdAt));
            insert.setTimestamp(11, Timestamp.from(file.updatedAt));
            insert.executeUpdate();
            forget.setString(1, file.storageKey);
            forget.executeUpdate();
            link.setObject(1, file.id);
            link.setTimestamp(2, Timestamp.from(Instant.now()));
            link.setString(3, file.orgId);
            link.setObject(4, uploadId);
            link.executeUpdate();
            parts.setString(1, file.orgId);
            parts.setObject(2, uploadId);
            parts.executeUpdate();
        }
    }

    /** The parts in order, each read with a short query of its own when the previous one is used up. */
    private final class PartsStream extends InputStream {
        private final String orgId;
        private final UUID uploadId;
        private final int parts;
        private int next;
        private byte[] current = new byte[0];
        private int position;

        PartsStream(String orgId, UUID uploadId, int parts) {
            this.orgId = orgId;
            this.uploadId = uploadId;
            this.parts = parts;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] target, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            while (position == current.length) {
                if (next == parts) {
                    return -1;
                }
                current = part(next++);
                position = 0;
            }
            int take = Math.min(length, current.length - position);
            System.arraycopy(current, position, target, offset, take);
            position += take;
            return take;
        }

        private byte[] part(int seq) throws IOException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement select = connection.prepareStatement("select data from file.recording_parts "
                            + "where org_id = ? and upload_id = ? and seq = ?")) {
                select.setString(1, orgId);
                select.setObject(2, uploadId);
                select.setInt(3, seq);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        throw new IOException("part " + seq + " of recording upload " + uploadId + " is missing");
                    }
                    return row.getBytes(1);
                }
            } catch (SQLException e) {
                throw new IOException("cannot read part " + seq + " of recording upload " + uploadId, e);
            }
        }
    }

    // ---- transactions ----------------------------------------------------------------------------------------

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** One transaction on a connection of its own, outside JTA (as the FileStore's writes): committed or rolled back. */
    private <T> T inTransaction(Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("recording upload failed in the database", e);
        }
    }
}
