package dev.voiceplane.file.store;

import io.agroal.api.AgroalDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Bytes in the service's own schema, table {@code blob_chunks}, in chunks of {@value #CHUNK} bytes: a write inserts
 * one chunk at a time in one transaction (all or nothing), a read selects one chunk at a time, so memory holds one
 * chunk whatever the file size. Uses its own connections, outside any JTA transaction, so a write commits or rolls
 * back on its own.
 */
public class PostgresFileStore implements FileStore {

    static final int CHUNK = 256 * 1024;
    private static final String BUCKET = "files";

    private final AgroalDataSource dataSource;

    public PostgresFileStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public String bucket() {
        return BUCKET;
    }

    @Override
    public void write(String key, InputStream source, long size) throws IOException {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into file.blob_chunks (storage_key, seq, data) values (?, ?, ?)")) {
                long written = 0;
                int seq = 0;
                byte[] buffer = new byte[CHUNK];
                while (true) {
                    int read = source.readNBytes(buffer, 0, CHUNK);
                    if (read == 0) {
                        break;
                    }
                    insert.setString(1, key);
                    insert.setInt(2, seq++);
                    insert.setBytes(3, read == CHUNK ? buffer : java.util.Arrays.copyOf(buffer, read));
                    insert.executeUpdate();
                    written += read;
                }
                if (written != size) {
                    throw new IOException("expected " + size + " bytes for " + key + ", read " + written);
                }
                connection.commit();
            } catch (IOException | SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new IOException("cannot store " + key, e);
        }
    }

    @Override
    public boolean copyTo(String key, OutputStream target) throws IOException {
        // One short query per chunk: no connection is held while the client reads slowly.
        for (int seq = 0; ; seq++) {
            byte[] chunk = chunk(key, seq);
            if (chunk == null) {
                return seq > 0;
            }
            target.write(chunk);
        }
    }

    private byte[] chunk(String key, int seq) throws IOException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select data from file.blob_chunks where storage_key = ? and seq = ?")) {
            select.setString(1, key);
            select.setInt(2, seq);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw new IOException("cannot read " + key, e);
        }
    }

    @Override
    public void delete(String key) throws IOException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "delete from file.blob_chunks where storage_key = ?")) {
            delete.setString(1, key);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IOException("cannot delete " + key, e);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select 1 from file.blob_chunks where storage_key = ? and seq = 0")) {
            select.setString(1, key);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException e) {
            throw new IOException("cannot look up " + key, e);
        }
    }
}
