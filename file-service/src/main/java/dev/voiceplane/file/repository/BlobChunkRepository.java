package dev.voiceplane.file.repository;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The rows of {@code blob_chunks}: the bytes of the PostgreSQL file store ({@code store/PostgresFileStore}, which
 * cuts them into chunks), numbered {@code seq} 0, 1, ... under their storage key. Plain JDBC on connections of its
 * own, outside any JTA transaction, so a write commits or rolls back on its own; failures are the store's
 * {@link IOException}s.
 */
@ApplicationScoped
public class BlobChunkRepository {

    /** The chunks of one write, in order. */
    @FunctionalInterface
    public interface Chunks {
        /** The next chunk (stored before this is called again, so a buffer may be reused); null after the last. */
        byte[] next() throws IOException;
    }

    private final AgroalDataSource dataSource;

    public BlobChunkRepository(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Inserts every chunk {@code chunks} yields under {@code key}, one statement per chunk (memory holds one chunk),
     * in one transaction: when {@code chunks} or an insert throws, nothing is stored.
     */
    public void insert(String key, Chunks chunks) throws IOException {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "insert into file.blob_chunks (storage_key, seq, data) values (?, ?, ?)")) {
                int seq = 0;
                for (byte[] chunk = chunks.next(); chunk != null; chunk = chunks.next()) {
                    insert.setString(1, key);
                    insert.setInt(2, seq++);
                    insert.setBytes(3, chunk);
                    insert.executeUpdate();
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

    /** Chunk {@code seq} of {@code key}, in a short query of its own; null when there is none. */
    public byte[] chunk(String key, int seq) throws IOException {
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

    /** Deletes every chunk of {@code key}. */
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

    /** Whether {@code key} has its first chunk. */
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
