package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A vonage credential's secret fields, read from credential-service at the moment of use and never stored here.
 * {@code signatureSecret} (the account's webhook signature secret) is read when credential-service offers it.
 */
@RegisterForReflection
public record CredentialSecret(String id, String provider, String apiKey, String apiSecret, String signatureSecret) {

    @Override
    public String toString() {
        // Not even the API key: it is a credential secret too (write-only, sealed wherever it is kept).
        return "CredentialSecret[id=" + id + ", provider=" + provider + "]";
    }
}
