package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.assistant.AssistantServiceApi;
import dev.voiceplane.kit.client.Peer;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.lookup.IdLookup;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Assistants and squads as assistant-service stores them, read under the kit's peer policy: empty for an id the
 * organisation does not have, a 503 when assistant-service cannot answer, a 400 when it refuses (never a 5xx: what
 * it refuses is what this request asked). The common fields of the answer
 * (id, orgId, createdAt, updatedAt) are removed: what a call freezes is the configuration.
 */
@Startup
@ApplicationScoped
public class AssistantDirectory {

    private static final Logger LOG = Logger.getLogger(AssistantDirectory.class);
    public static final String CIRCUIT = AssistantServiceApi.PEER;
    private static final String CONSEQUENCE = "so the call's assistant cannot be read";

    private final Peer<AssistantServiceApi> assistants;

    public AssistantDirectory(@RestClient AssistantServiceClient api, PeerServices peers) {
        this.assistants = peers.client(CIRCUIT, api);
    }

    // Ids and list sizes are checked before a peer is asked (CallReferences), so a refusal should not happen; when it
    // does, it is an answer about what this request asked, not an outage: a 400 naming the peer and its status,
    // never a 5xx that would tell the client to retry.
    public Optional<ObjectNode> assistant(String orgId, String id) {
        return answered(() -> assistants.find(api -> api.assistant(orgId, id), CONSEQUENCE), "assistant " + id)
                .map(AssistantDirectory::configuration);
    }

    public Optional<ObjectNode> squad(String orgId, String id) {
        return answered(() -> assistants.find(api -> api.squad(orgId, id), CONSEQUENCE), "squad " + id)
                .map(AssistantDirectory::configuration);
    }

    /**
     * The organisation's tools among {@code ids} by id, each its configuration (the common fields removed); ids it
     * does not have are absent. Asked {@value IdLookup#MAX_IDS} ids at a time, the most one lookup takes.
     */
    public Map<String, ObjectNode> tools(String orgId, List<String> ids) {
        Map<String, ObjectNode> found = new LinkedHashMap<>();
        for (int start = 0; start < ids.size(); start += IdLookup.MAX_IDS) {
            IdLookup batch = new IdLookup(new ArrayList<>(ids.subList(start, Math.min(ids.size(), start + IdLookup.MAX_IDS))));
            ArrayNode tools = answered(() -> assistants.find(api -> api.resolveTools(orgId, batch), CONSEQUENCE),
                    "the tools of model.toolIds").orElseGet(JsonNodeFactory.instance::arrayNode);
            for (JsonNode tool : tools) {
                if (tool instanceof ObjectNode object && object.path("id").isTextual()) {
                    found.put(object.get("id").asText(), configuration(object));
                }
            }
        }
        return found;
    }

    private static <T> Optional<T> answered(Supplier<Optional<T>> request, String what) {
        try {
            return request.get();
        } catch (PeerFailure.Rejected refused) {
            LOG.warnf("%s refused to answer %s with %d", CIRCUIT, what, refused.status());
            throw ApiException.invalid(CIRCUIT + " refused to answer " + what + " (" + refused.status()
                    + "); nothing was written");
        }
    }

    private static ObjectNode configuration(ObjectNode stored) {
        stored.remove(List.of("id", "orgId", "createdAt", "updatedAt"));
        return stored;
    }
}
