package dev.voiceplane.kit.auth;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The media tokens of this deployment ({@link MediaTokens}), when {@code VOICE_MEDIA_TOKEN_KEY} is set: services
 * that hand media to the voice runtime issue them, the runtime verifies them. Issued tokens live
 * {@code VOICE_MEDIA_TOKEN_TTL} (long enough for an outbound call to ring and be answered).
 */
@ApplicationScoped
public class MediaTokenKey {

    private final Optional<MediaTokens> tokens;
    private final Duration lifetime;

    public MediaTokenKey(@ConfigProperty(name = "voice.media-token-key") Optional<String> key,
            @ConfigProperty(name = "voice.media-token-ttl", defaultValue = "10m") Duration lifetime) {
        this.tokens = key.filter(value -> !value.isBlank()).map(MediaTokens::new);
        this.lifetime = lifetime;
    }

    public Optional<MediaTokens> tokens() {
        return tokens;
    }

    /** A token for one call, or empty when no key is configured. */
    public Optional<String> issue(String orgId, UUID callId) {
        return tokens.map(t -> t.issue(orgId, callId, Instant.now().plus(lifetime)));
    }
}
