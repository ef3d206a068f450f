package dev.voiceplane.call.delivery;

import com.standardwebhooks.Webhook;
import dev.voiceplane.call.repository.SigningSecretStore;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

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

    private final SigningSecretStore store;
    private final SecretBox box;
    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    public SigningSecrets(SigningSecretStore store, SecretBox box) {
        this.store = store;
        this.box = box;
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
        UUID id = Ids.newId();
        byte[] key = new byte[32];
        random.nextBytes(key);
        String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
        byte[] sealed = box.seal(secret.getBytes(StandardCharsets.UTF_8), context(orgId, id));
        if (rotate) {
            store.rotate(orgId, id, sealed, overlap);
        } else {
            store.addFirst(orgId, id, sealed);
        }
    }

    private List<Secret> read(String orgId) {
        return store.signing(orgId).stream().map(row -> new Secret(
                new String(box.open(row.secret(), context(orgId, row.id())), StandardCharsets.UTF_8),
                row.createdAt(), row.expiresAt())).toList();
    }

    private static String context(String orgId, UUID id) {
        return "signing-secret:" + orgId + ":" + id;
    }
}
