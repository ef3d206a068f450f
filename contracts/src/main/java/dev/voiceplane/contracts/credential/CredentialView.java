package dev.voiceplane.contracts.credential;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/** A credential as clients (and other services, on the internal routes) see it: never a secret field. */
@RegisterForReflection
public record CredentialView(
        String id,
        String orgId,
        String provider,
        String name,
        String accountSid,
        Instant createdAt,
        Instant updatedAt) {
}
