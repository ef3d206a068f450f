package dev.voiceplane.contracts.credential;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The decrypted secret of a credential, for another service that must call the provider (internal only; read at
 * the moment of use and never stored by the caller). {@code apiKey}: the provider's key (an azure-openai credential's
 * {@code openAIKey} too, so every caller reads a key in one place); {@code signatureSecret}: a vonage credential's
 * webhook signature secret, when one was given; {@code ocpApimSubscriptionKey}: an azure-openai credential's API
 * Management subscription key, when one was given. The fields that are not secrets (an azure region, an endpoint)
 * are the credential's {@link CredentialView}.
 */
@RegisterForReflection
public record CredentialSecret(
        String id,
        String provider,
        String accountSid,
        String apiKey,
        String apiSecret,
        String authToken,
        String signatureSecret,
        String ocpApimSubscriptionKey) {

    /** Never shows the secret values (the API key included), so a log line or an exception message cannot leak them. */
    @Override
    public String toString() {
        return "CredentialSecret[id=" + id + ", provider=" + provider + ", accountSid=" + accountSid + "]";
    }
}
