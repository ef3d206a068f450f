package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.voiceplane.kit.client.PeerService;
import dev.voiceplane.kit.client.PeerServices;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The organisation's own provider keys, read from credential-service at the moment of use and never stored here:
 * its newest credential of the provider, then that credential's secret.
 */
@Startup
@ApplicationScoped
public class Credentials {

    public static final String CIRCUIT = "credential-service";
    private static final String CONSEQUENCE = "so the organisation's provider key cannot be read";

    private final CredentialServiceApi api;
    private final PeerService peer;

    public Credentials(@RestClient CredentialServiceApi api, PeerServices peers) {
        this.api = api;
        this.peer = peers.named(CIRCUIT);
    }

    /** The provider of one of the organisation's credentials; empty when it has no such credential. */
    public Optional<String> provider(String orgId, String id) {
        String consequence = "so the phone number's credential cannot be checked";
        try {
            return peer.find(() -> api.get(orgId, id), consequence)
                    .map(credential -> credential.path("provider").asText(""));
        } catch (dev.voiceplane.kit.client.PeerFailure.Rejected refused) {
            throw peer.refused(refused, consequence);
        }
    }

    /** The API key of the organisation's newest credential of {@code provider}; empty when it has none. */
    public Optional<String> apiKey(String orgId, String provider) {
        ArrayNode found = peer.call(() -> api.byProvider(orgId, provider, 1), CONSEQUENCE);
        if (found == null || found.isEmpty() || !found.get(0).path("id").isTextual()) {
            return Optional.empty();
        }
        String id = found.get(0).path("id").asText();
        return peer.find(() -> api.secret(orgId, id), CONSEQUENCE)
                .map(secret -> secret.path("apiKey"))
                .filter(JsonNode::isTextual)
                .map(JsonNode::asText);
    }
}
