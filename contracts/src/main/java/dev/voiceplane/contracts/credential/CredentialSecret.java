package dev.voiceplane.contracts.credential;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The decrypted secret of a credential, for another service that must call the provider (internal only; read at
 * the moment of use and never stored by the caller). {@code signatureSecret}: a vonage credential's webhook
 * signature secret, when one was given.
 */
@RegisterForReflection
public record CredentialSecret(
        String id,
        String provider,
        String accountSid,
        String apiKey,
        String apiSecret,
        String authToken,
        String signatureSecret) {

    /** Never shows the secret values (the API key included), so a log line or an exception message cannot leak them. */
    @Override
    public String toString() {
        return "CredentialSecret[id=" + id + ", provider=" + provider + ", accountSid=" + accountSid + "]";
    }
}
