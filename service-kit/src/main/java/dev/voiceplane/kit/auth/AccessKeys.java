package dev.voiceplane.kit.auth;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.MessageDigest;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The API keys ({@code VOICE_API_KEYS}) and the internal service token ({@code VOICE_INTERNAL_TOKEN}) that
 * {@link Authentication} checks requests against.
 *
 * <p>A bean of its own, application-scoped, so that it is made on the first request and reads the configuration the
 * process started with: {@link Authentication} is a request filter that a native executable creates while it is
 * built, and the keys it held then were the build's, empty (native-image refuses to start with them, 2026-11-26).
 */
@ApplicationScoped
public class AccessKeys {

    private static final Logger LOG = Logger.getLogger(AccessKeys.class);

    private final ApiKeyRegistry keys;
    private final byte[] internalTokenDigest;

    AccessKeys(@ConfigProperty(name = "voice.api-keys") Optional<String> apiKeys,
            @ConfigProperty(name = "voice.internal-token") Optional<String> internalToken) {
        this.keys = ApiKeyRegistry.parse(apiKeys.orElse(""));
        if (keys.isEmpty()) {
            LOG.warn("VOICE_API_KEYS is empty: every public request will be answered 401");
        }
        this.internalTokenDigest = internalToken
                .filter(token -> !token.isBlank())
                .map(ApiKeyRegistry::sha256)
                .orElse(null);
    }

    /** The organisation whose API key this is, if it is one. */
    public Optional<String> organisationOf(String key) {
        return keys.organisationOf(key);
    }

    /** Whether the bearer is the internal service token (compared in constant time). */
    public boolean isServiceToken(Optional<String> bearer) {
        return internalTokenDigest != null && bearer.isPresent()
                && MessageDigest.isEqual(internalTokenDigest, ApiKeyRegistry.sha256(bearer.get()));
    }
}
