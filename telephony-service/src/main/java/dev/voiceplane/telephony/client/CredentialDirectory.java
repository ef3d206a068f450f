package dev.voiceplane.telephony.client;

import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.contracts.credential.CredentialServiceApi;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerServices;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Vonage credentials as credential-service holds them: a 404 is an answer (empty), failures end as a 503. */
@Startup
@ApplicationScoped
public class CredentialDirectory {

    public static final String PEER = CredentialServiceApi.PEER;

    private final Peer<CredentialServiceApi> credentials;

    public CredentialDirectory(@RestClient CredentialServiceClient api, PeerServices peers) {
        this.credentials = peers.client(PEER, api);
    }

    /** The credential's secret when it exists in the organisation; empty when credential-service has no such id. */
    public Optional<CredentialSecret> secret(String orgId, String credentialId) {
        return credentials.find(api -> api.secret(orgId, credentialId), "so credentialId cannot be checked");
    }
}
