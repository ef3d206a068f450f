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
        List<CredentialView> found = credentials.call(api -> api.byProvider(orgId, provider, 1), consequence);
        if (found == null || found.isEmpty() || found.get(0) == null || found.get(0).id() == null) {
            return Optional.empty();
        }
        String id = found.get(0).id();
        return credentials.find(api -> api.secret(orgId, id), consequence).map(CredentialSecret::apiKey);
    }
}
