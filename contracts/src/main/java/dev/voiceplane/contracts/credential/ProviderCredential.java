package dev.voiceplane.contracts.credential;

import java.util.List;

/**
 * An organisation's credential of a provider as a service about to call that provider needs it: the key and the
 * fields that are not secrets (an azure {@code region}, an azure-openai {@code openAIEndpoint}), read at the moment of
 * use through {@link CredentialKeys#credential} and never stored by the caller.
 */
public record ProviderCredential(CredentialView credential, CredentialSecret secret) {

    /** The provider's key; null for a credential without one (a twilio credential). */
    public String apiKey() {
        return secret.apiKey();
    }

    public String region() {
        return credential.region();
    }

    public String openAIEndpoint() {
        return credential.openAIEndpoint();
    }

    public List<String> models() {
        return credential.models();
    }

    public String apiUrl() {
        return credential.apiUrl();
    }

    /** Never shows a secret: the view has none, and the secret's own {@code toString} names none. */
    @Override
    public String toString() {
        return "ProviderCredential[credential=" + credential + ", secret=" + secret + "]";
    }
}
