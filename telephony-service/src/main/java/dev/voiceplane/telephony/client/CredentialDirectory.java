package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.client.PeerService;
import dev.voiceplane.kit.client.PeerServices;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Vonage credentials as credential-service holds them: a 404 is an answer (empty), failures end as a 503. */
@Startup
@ApplicationScoped
public class CredentialDirectory {

    public static final String PEER = "credential-service";

    private final CredentialServiceApi credentials;
    private final PeerService peer;

    public CredentialDirectory(@RestClient CredentialServiceApi credentials, PeerServices peers) {
        this.credentials = credentials;
        this.peer = peers.named(PEER);
    }

    /** The credential's secret when it exists in the organisation; empty when credential-service has no such id. */
    public Optional<CredentialSecret> secret(String orgId, String credentialId) {
        return peer.find(() -> credentials.secret(orgId, credentialId), "so credentialId cannot be checked");
    }
}
