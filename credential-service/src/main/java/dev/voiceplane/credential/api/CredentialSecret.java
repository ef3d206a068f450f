package dev.voiceplane.credential.api;

/**
 * The decrypted secret of a credential, for another service that must call the provider (internal only).
 * {@code signatureSecret}: a vonage credential's webhook signature secret, when one was given.
 */
public record CredentialSecret(
        String id,
        String provider,
        String accountSid,
        String apiKey,
        String apiSecret,
        String authToken,
        String signatureSecret) {

    /** Never shows the secret values, so a log line or an exception message cannot leak them. */
    @Override
    public String toString() {
        return "CredentialSecret[id=" + id + ", provider=" + provider + ", accountSid=" + accountSid + "]";
    }
}
