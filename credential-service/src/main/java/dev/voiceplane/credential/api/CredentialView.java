package dev.voiceplane.credential.api;

import dev.voiceplane.credential.domain.Credential;
import java.time.Instant;

/** A credential as clients see it: never a secret field. */
public record CredentialView(
        String id,
        String orgId,
        String provider,
        String name,
        String accountSid,
        Instant createdAt,
        Instant updatedAt) {

    public static CredentialView of(Credential credential) {
        return new CredentialView(credential.id.toString(), credential.orgId, credential.provider, credential.name,
                credential.accountSid, credential.createdAt, credential.updatedAt);
    }
}
