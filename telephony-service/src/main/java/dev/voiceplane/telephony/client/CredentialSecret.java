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
        return "CredentialSecret[id=" + id + ", provider=" + provider + ", apiKey=" + apiKey + "]";
    }
}
