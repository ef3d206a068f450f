package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.PeerService;
import dev.voiceplane.kit.client.PeerServices;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Assistants and squads as assistant-service stores them, read under the kit's peer policy: empty for an id the
 * organisation does not have, a 503 when assistant-service cannot answer. The common fields of the answer
 * (id, orgId, createdAt, updatedAt) are removed: what a call freezes is the configuration.
 */
@Startup
@ApplicationScoped
public class AssistantDirectory {

    public static final String CIRCUIT = "assistant-service";
    private static final String CONSEQUENCE = "so the call's assistant cannot be read";

    private final AssistantServiceApi api;
    private final PeerService peer;

    public AssistantDirectory(@RestClient AssistantServiceApi api, PeerServices peers) {
        this.api = api;
        this.peer = peers.named(CIRCUIT);
    }

    public Optional<ObjectNode> assistant(String orgId, String id) {
        return read(() -> api.assistant(orgId, id));
    }

    public Optional<ObjectNode> squad(String orgId, String id) {
        return read(() -> api.squad(orgId, id));
    }

    private Optional<ObjectNode> read(java.util.function.Supplier<ObjectNode> request) {
        try {
            return peer.find(request, CONSEQUENCE).map(AssistantDirectory::configuration);
        } catch (PeerFailure.Rejected refused) {
            // Ids are checked before a peer is asked (CallCreation): refusing a well-formed read is a fault between
            // the services (token, version), not an outage and not the client's.
            throw peer.refused(refused, CONSEQUENCE);
        }
    }

    private static ObjectNode configuration(ObjectNode stored) {
        stored.remove(java.util.List.of("id", "orgId", "createdAt", "updatedAt"));
        return stored;
    }
}
