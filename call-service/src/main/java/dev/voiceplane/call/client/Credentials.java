package dev.voiceplane.call.client;

import dev.voiceplane.contracts.credential.CredentialKeys;
import dev.voiceplane.contracts.credential.CredentialServiceApi;
import dev.voiceplane.contracts.credential.CredentialView;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The organisation's credentials as credential-service holds them: a phone number's credential checked, and the
 * organisation's own provider keys read at the moment of use and never stored here.
 */
@Startup
@ApplicationScoped
public class Credentials {

    public static final String CIRCUIT = CredentialServiceApi.PEER;
    private static final String CONSEQUENCE = "so the organisation's provider key cannot be read";

    private final Peer<CredentialServiceApi> credentials;

    public Credentials(@RestClient CredentialServiceClient api, PeerServices peers) {
        this.credentials = peers.client(CIRCUIT, api);
    }

    /** The provider of one of the organisation's credentials; empty when it has no such credential. */
    public Optional<String> provider(String orgId, String id) {
        return credentials.read(api -> api.get(orgId, id), "so the phone number's credential cannot be checked")
                .map(CredentialView::provider)
                .map(provider -> Objects.requireNonNullElse(provider, ""));
    }

    /** The API key of the organisation's newest credential of {@code provider}; empty when it has none. */
    public Optional<String> apiKey(String orgId, String provider) {
        return CredentialKeys.apiKey(credentials, orgId, provider, CONSEQUENCE);
    }
}
