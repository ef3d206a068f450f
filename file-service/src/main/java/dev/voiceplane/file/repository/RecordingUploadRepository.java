package dev.voiceplane.file.repository;

import dev.voiceplane.file.domain.StoredFile;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The rows of recording uploads ({@code recording_uploads}, their audio in {@code recording_parts}) and the file row
 * a completed one becomes. Plain JDBC on connections of its own, outside JTA (as the FileStore's writes): a part's
 * append locks its upload row ({@code for update}) in a transaction of its own ({@link #inTransaction}), so parts
 * stay in order under retries, and a completion holds that lock while its bytes are copied.
 */
@ApplicationScoped
public class RecordingUploadRepository {

    /** An upload as stored: {@code parts} received so far, {@code bytes} of audio in them; {@code fileId} once complete. */
    public record Upload(UUID id, String name, int channels, int sampleRate, int parts, long bytes, UUID fileId) {
    }

    private final AgroalDataSource dataSource;

    public RecordingUploadRepository(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public void insert(String orgId, UUID id, String name, int channels, int sampleRate, Instant now) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("insert into file.recording_uploads "
                        + "(org_id, id, name, channels, sample_rate, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, orgId);
            insert.setObject(2, id);
            insert.setString(3, name);
            insert.setShort(4, (short) channels);
            insert.setInt(5, sampleRate);
            insert.setTimestamp(6, Timestamp.from(now));
            insert.setTimestamp(7, Timestamp.from(now));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start a recording upload", e);
        }
    }

    /** Removes every upload last touched before {@code before} (its parts with it); how many. */
    public int deleteUntouchedSince(Instant before) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "delete from file.recording_uploads where updated_at < ?")) {
            delete.setTimestamp(1, Timestamp.from(before));
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot sweep recording uploads", e);
        }
    }

    /** The first {@code parts} parts of an upload in order, each read with a short query of its own when needed. */
    public InputStream parts(String orgId, UUID uploadId, int parts) {
        return new PartsStream(orgId, uploadId, parts);
    }

    /**
     * Runs {@code work} in one transaction on a connection of its own, outside JTA: committed when it returns,
     * rolled back when it throws.
     */
    public <T> T inTransaction(Function<Transaction, T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.apply(new Transaction(connection));
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    private static IllegalStateException failed(SQLException e) {
        return new IllegalStateException("recording upload failed in the database", e);
    }

    /** The statements of one {@link #inTransaction} transaction. */
    public static final class Transaction {

        private final Connection connection;

        private Transaction(Connection connection) {
            this.connection = connection;
        }

        /** The upload, its row locked until the transaction ends; empty when the organisation has none. */
        public Optional<Upload> lock(String orgId, UUID id) {
            try (PreparedStatement select = connection.prepareStatement("select name, channels, sample_rate, parts, "
                    + "bytes, file_id from file.recording_uploads where org_id = ? and id = ? for update")) {
                select.setString(1, orgId);
                select.setObject(2, id);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Upload(id, row.getString(1), row.getShort(2), row.getInt(3), row.getInt(4),
                            row.getLong(5), row.getObject(6, UUID.class)));
                }
            } catch (SQLException e) {
                throw failed(e);
            }
        }

        /** Stores part {@code seq} and counts it (and its bytes) in the upload. */
        public void addPart(String orgId, UUID id, int seq, byte[] audio) {
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
            } catch (SQLException e) {
                throw failed(e);
            }
        }

        /** Deletes the upload (its parts with it). */
        public void delete(String orgId, UUID id) {
            try (PreparedStatement delete = connection.prepareStatement(
                    "delete from file.recording_uploads where org_id = ? and id = ?")) {
                delete.setString(1, orgId);
                delete.setObject(2, id);
                delete.executeUpdate();
            } catch (SQLException e) {
                throw failed(e);
            }
        }

        /** The file row {@code fileId} of the organisation, read as a detached entity; empty once deleted. */
        public Optional<StoredFile> file(String orgId, UUID fileId) {
            try (PreparedStatement select = connection.prepareStatement("select name, original_name, bytes, mimetype, "
                    + "status, bucket, storage_key, created_at, updated_at from file.files where org_id = ? and id = ?")) {
                select.setString(1, orgId);
                select.setObject(2, fileId);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
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
                    return Optional.of(file);
                }
            } catch (SQLException e) {
                throw failed(e);
            }
        }

        /**
         * Completes the upload as {@code file}: the file row, the removal of its bytes' cleanup entry, the upload's
         * link to the file and the removal of its parts.
         */
        public void complete(UUID uploadId, StoredFile file) {
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
            } catch (SQLException e) {
                throw failed(e);
            }
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
}
