package dev.voiceplane.call.api;

import java.time.Instant;
import java.util.List;

/**
 * The organisation's Standard Webhooks signing secret ({@code whsec_...}) and the rotated-out ones that still sign
 * until {@code expiresAt} (docs/webhooks.md).
 */
public record WebhookSecretView(String secret, Instant createdAt, List<Previous> previousSecrets) {

    public record Previous(String secret, Instant createdAt, Instant expiresAt) {
    }
}
