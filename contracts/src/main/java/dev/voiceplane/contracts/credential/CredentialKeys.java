package dev.voiceplane.contracts.credential;

import dev.voiceplane.kit.client.Peer;
import java.util.List;
import java.util.Optional;

/**
 * An organisation's own provider key: its newest credential of the provider, then that credential's secret, read
 * at the moment of use and never stored by the caller (call-service for post-call analysis, the voice runtime for
 * its providers).
 */
public final class CredentialKeys {

    private CredentialKeys() {
    }

    /** The API key of the organisation's newest credential of {@code provider}; empty when it has none. */
    public static Optional<String> apiKey(Peer<CredentialServiceApi> credentials, String orgId, String provider,
            String consequence) {
        return credential(credentials, orgId, provider, consequence).map(ProviderCredential::apiKey);
    }

    /**
     * The organisation's newest credential of {@code provider} with its secret: the key and the fields that are not
     * secrets (an azure {@code region}, an azure-openai {@code openAIEndpoint}), with the same two calls as
     * {@link #apiKey}; empty when it has none.
     */
    public static Optional<ProviderCredential> credential(Peer<CredentialServiceApi> credentials, String orgId,
            String provider, String consequence) {
        List<CredentialView> found = credentials.call(api -> api.byProvider(orgId, provider, 1), consequence);
        if (found == null || found.isEmpty() || found.get(0) == null || found.get(0).id() == null) {
            return Optional.empty();
        }
        CredentialView newest = found.get(0);
        return credentials.find(api -> api.secret(orgId, newest.id()), consequence)
                .map(secret -> new ProviderCredential(newest, secret));
    }
}
