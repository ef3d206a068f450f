package dev.voiceplane.call.client;

import dev.voiceplane.contracts.assistant.AssistantServiceApi;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.client.Peer;
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

    public static final String CIRCUIT = AssistantServiceApi.PEER;
    private static final String CONSEQUENCE = "so the call's assistant cannot be read";

    private final Peer<AssistantServiceApi> assistants;

    public AssistantDirectory(@RestClient AssistantServiceClient api, PeerServices peers) {
        this.assistants = peers.client(CIRCUIT, api);
    }

    // Ids are checked before a peer is asked (CallCreation): refusing a well-formed read is a fault between the
    // services (token, version), not an outage and not the client's: Peer.read makes it a 500.
    public Optional<ObjectNode> assistant(String orgId, String id) {
        return assistants.read(api -> api.assistant(orgId, id), CONSEQUENCE).map(AssistantDirectory::configuration);
    }

    public Optional<ObjectNode> squad(String orgId, String id) {
        return assistants.read(api -> api.squad(orgId, id), CONSEQUENCE).map(AssistantDirectory::configuration);
    }

    /**
     * The organisation's tools among {@code ids} by id, each its configuration (the common fields removed); ids it
     * does not have are absent.
     */
    public java.util.Map<String, ObjectNode> tools(String orgId, java.util.List<String> ids) {
        java.util.Map<String, ObjectNode> found = new java.util.LinkedHashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        com.fasterxml.jackson.databind.node.ArrayNode tools = assistants.read(
                        api -> api.resolveTools(orgId, new dev.voiceplane.kit.lookup.IdLookup(ids)), CONSEQUENCE)
                .orElseGet(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance::arrayNode);
        for (com.fasterxml.jackson.databind.JsonNode tool : tools) {
            if (tool instanceof ObjectNode object && object.path("id").isTextual()) {
                found.put(object.get("id").asText(), configuration(object));
            }
        }
        return found;
    }

    private static ObjectNode configuration(ObjectNode stored) {
        stored.remove(java.util.List.of("id", "orgId", "createdAt", "updatedAt"));
        return stored;
    }
}
