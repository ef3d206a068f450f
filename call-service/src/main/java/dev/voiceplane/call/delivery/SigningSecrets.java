package dev.voiceplane.call.delivery;

import com.standardwebhooks.Webhook;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.persistence.Ids;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Each organisation's Standard Webhooks signing secrets ({@code whsec_} + base64 of 32 random bytes): generated the
 * first time the organisation needs one (its first delivery, or the customer asking for it), sealed at rest with
 * the service's keyset (bound to the organisation and the secret's id), and rotated with an overlap during which
 * the old secret signs next to the new one. Replicas keep what they read for {@value #CACHE_SECONDS} s, so a
 * rotation reaches every replica within that (the old secret keeps signing meanwhile).
 */
@ApplicationScoped
public class SigningSecrets {

    static final int CACHE_SECONDS = 10;
    /** Per instance, made when the bean is: a native executable would otherwise hold one seeded at build time. */
    private final SecureRandom random = new SecureRandom();

    /** A secret as the API shows it. */
    public record Secret(String secret, Instant createdAt, Instant expiresAt) {
    }

    private record Cached(List<Secret> secrets, List<Webhook> signers, long readAtNanos) {
    }

    private final AgroalDataSource dataSource;
    private final SecretBox box;
    private final String table;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    public SigningSecrets(AgroalDataSource dataSource, SecretBox box,
            @ConfigProperty(name = "quarkus.hibernate-orm.database.default-schema") String schema) {
        this.dataSource = dataSource;
        this.box = box;
        this.table = schema + ".call_signing_secrets";
    }

    /** The secrets that sign now, newest first (created when the organisation has none). */
    public List<String> signingKeys(String orgId) {
        return cached(orgId).secrets().stream().map(Secret::secret).toList();
    }

    /** The same as signers, decoded once per read (what every delivery signs with). */
    public List<Webhook> signers(String orgId) {
        return cached(orgId).signers();
    }

    private Cached cached(String orgId) {
        Cached cached = cache.get(orgId);
        if (cached == null || System.nanoTime() - cached.readAtNanos() > CACHE_SECONDS * 1_000_000_000L) {
            List<Secret> secrets = current(orgId);
            cached = new Cached(secrets, Signatures.signers(secrets.stream().map(Secret::secret).toList()),
                    System.nanoTime());
            cache.put(orgId, cached);
        }
        return cached;
    }

    /** The organisation's current and still-signing previous secrets, newest first; creates the first one. */
    public List<Secret> current(String orgId) {
        List<Secret> secrets = read(orgId);
        if (secrets.isEmpty() || secrets.get(0).expiresAt() != null) {
            create(orgId, false, Duration.ZERO);
            secrets = read(orgId);
        }
        return secrets;
    }

    /** A new current secret; the one it replaces keeps signing for {@code overlap}. */
    public List<Secret> rotate(String orgId, Duration overlap) {
        create(orgId, true, overlap);
        cache.remove(orgId);
        return read(orgId);
    }

    private void create(String orgId, boolean rotate, Duration overlap) {
        QuarkusTransaction.requiringNew().run(() -> {
            try (Connection connection = dataSource.getConnection()) {
                // One rotation (or first creation) per organisation at a time, across replicas.
                try (PreparedStatement lock = connection.prepareStatement("select pg_advisory_xact_lock(hashtext(?))")) {
                    lock.setString(1, "signing-secret:" + orgId);
                    lock.execute();
                }
                Instant now = Instant.now();
                if (rotate) {
                    try (PreparedStatement retire = connection.prepareStatement("update " + table
                            + " set expires_at = ? where org_id = ? and expires_at is null")) {
                        retire.setTimestamp(1, Timestamp.from(now.plus(overlap)));
                        retire.setString(2, orgId);
                        retire.executeUpdate();
                    }
                }
                UUID id = Ids.newId();
                byte[] key = new byte[32];
                random.nextBytes(key);
                String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
                try (PreparedStatement insert = connection.prepareStatement("insert into " + table
                        + " (org_id, id, secret, created_at) values (?, ?, ?, ?)"
                        + " on conflict (org_id) where expires_at is null do nothing")) {
                    insert.setString(1, orgId);
                    insert.setObject(2, id);
                    insert.setBytes(3, box.seal(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            context(orgId, id)));
                    insert.setTimestamp(4, Timestamp.from(now));
                    insert.executeUpdate();
                }
            } catch (SQLException e) {
                throw new IllegalStateException("a signing secret cannot be stored", e);
            }
        });
    }

    private List<Secret> read(String orgId) {
        List<Secret> secrets = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("select id, secret, created_at, expires_at from "
                        + table + " where org_id = ? and (expires_at is null or expires_at > now())"
                        + " order by (expires_at is null) desc, created_at desc")) {
            select.setString(1, orgId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    UUID id = rows.getObject(1, UUID.class);
                    String secret = new String(box.open(rows.getBytes(2), context(orgId, id)),
                            java.nio.charset.StandardCharsets.UTF_8);
                    Timestamp expires = rows.getTimestamp(4);
                    secrets.add(new Secret(secret, rows.getTimestamp(3).toInstant(),
                            expires == null ? null : expires.toInstant()));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the signing secrets cannot be read", e);
        }
        return secrets;
    }

    private static String context(String orgId, UUID id) {
        return "signing-secret:" + orgId + ":" + id;
    }
}
