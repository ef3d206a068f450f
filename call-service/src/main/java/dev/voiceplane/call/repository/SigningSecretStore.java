package dev.voiceplane.call.repository;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The rows of {@code call_signing_secrets}: each organisation's Standard Webhooks signing secrets as sealed bytes
 * (sealing and opening them is {@code delivery/SigningSecrets}'), one current (no {@code expires_at}) and the
 * retired ones that still sign until they expire. Plain JDBC on the datasource, as the rest of the delivery worker's
 * state ({@link DeliveryStore}): the worker reads them off any request.
 */
@ApplicationScoped
public class SigningSecretStore {

    /** A stored secret, still sealed; {@code expiresAt} is null for the current one. */
    public record Sealed(UUID id, byte[] secret, Instant createdAt, Instant expiresAt) {
    }

    private final AgroalDataSource dataSource;
    private final String table;

    public SigningSecretStore(AgroalDataSource dataSource,
            @ConfigProperty(name = "quarkus.hibernate-orm.database.default-schema") String schema) {
        this.dataSource = dataSource;
        this.table = schema + ".call_signing_secrets";
    }

    /** The organisation's secrets that sign now: the current one first, then the retired ones, newest first. */
    public List<Sealed> signing(String orgId) {
        List<Sealed> secrets = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("select id, secret, created_at, expires_at from "
                        + table + " where org_id = ? and (expires_at is null or expires_at > now())"
                        + " order by (expires_at is null) desc, created_at desc")) {
            select.setString(1, orgId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    Timestamp expires = rows.getTimestamp(4);
                    secrets.add(new Sealed(rows.getObject(1, UUID.class), rows.getBytes(2),
                            rows.getTimestamp(3).toInstant(), expires == null ? null : expires.toInstant()));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the signing secrets cannot be read", e);
        }
        return secrets;
    }

    /** Stores {@code sealed} as the organisation's current secret, unless it has one already (a concurrent first use). */
    public void addFirst(String orgId, UUID id, byte[] sealed) {
        add(orgId, id, sealed, null);
    }

    /** Stores {@code sealed} as the organisation's current secret; the one it replaces keeps signing for {@code overlap}. */
    public void rotate(String orgId, UUID id, byte[] sealed, Duration overlap) {
        add(orgId, id, sealed, overlap);
    }

    /**
     * In a transaction of its own that first takes the organisation's advisory lock, so that one rotation (or first
     * creation) per organisation runs at a time across replicas.
     */
    private void add(String orgId, UUID id, byte[] sealed, Duration retireAfter) {
        QuarkusTransaction.requiringNew().run(() -> {
            try (Connection connection = dataSource.getConnection()) {
                try (PreparedStatement lock = connection.prepareStatement("select pg_advisory_xact_lock(hashtext(?))")) {
                    lock.setString(1, "signing-secret:" + orgId);
                    lock.execute();
                }
                Instant now = Instant.now();
                if (retireAfter != null) {
                    try (PreparedStatement retire = connection.prepareStatement("update " + table
                            + " set expires_at = ? where org_id = ? and expires_at is null")) {
                        retire.setTimestamp(1, Timestamp.from(now.plus(retireAfter)));
                        retire.setString(2, orgId);
                        retire.executeUpdate();
                    }
                }
                try (PreparedStatement insert = connection.prepareStatement("insert into " + table
                        + " (org_id, id, secret, created_at) values (?, ?, ?, ?)"
                        + " on conflict (org_id) where expires_at is null do nothing")) {
                    insert.setString(1, orgId);
                    insert.setObject(2, id);
                    insert.setBytes(3, sealed);
                    insert.setTimestamp(4, Timestamp.from(now));
                    insert.executeUpdate();
                }
            } catch (SQLException e) {
                throw new IllegalStateException("a signing secret cannot be stored", e);
            }
        });
    }
}
