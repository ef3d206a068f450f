package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.client.AssistantDirectory;
import dev.voiceplane.kit.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a call runs with, read once and frozen into it: a later change of the assistant or squad does not rewrite
 * the call's history. Stored assistants and squads are read from assistant-service (an unknown id is a 400 naming
 * it, an unreachable service a 503, before anything is written).
 */
@ApplicationScoped
public class AssistantFreezing {

    private final AssistantDirectory assistants;
    private final ObjectMapper json;

    public AssistantFreezing(AssistantDirectory assistants, ObjectMapper json) {
        this.assistants = assistants;
        this.json = json;
    }

    /** Freezes the assistant or squad (and the stored assistants a squad names) into the call's configuration. */
    public void freeze(String orgId, CallRequest body, ObjectNode configuration) {
        if (body.assistantId() != null) {
            configuration.set("assistant", assistants.assistant(orgId, body.assistantId())
                    .orElseThrow(() -> ApiException.invalid("assistantId " + body.assistantId() + " does not exist")));
        } else if (body.assistant() != null) {
            configuration.set("assistant", json.valueToTree(body.assistant()));
        }
        if (body.assistantOverrides() != null) {
            configuration.set("assistantOverrides", json.valueToTree(body.assistantOverrides()));
        }
        ObjectNode squad = null;
        String where = "squad.";
        if (body.squadId() != null) {
            squad = assistants.squad(orgId, body.squadId())
                    .orElseThrow(() -> ApiException.invalid("squadId " + body.squadId() + " does not exist"));
            where = "squad " + body.squadId() + " ";
        } else if (body.squad() != null) {
            squad = json.valueToTree(body.squad());
        }
        if (squad == null) {
            return;
        }
        configuration.set("squad", squad);
        ArrayNode frozen = configuration.putArray("squadAssistants");
        Map<String, ObjectNode> read = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        JsonNode members = squad.path("members");
        for (int i = 0; i < members.size(); i++) {
            JsonNode assistantId = members.get(i).get("assistantId");
            if (assistantId == null || !assistantId.isTextual() || read.containsKey(assistantId.asText())) {
                continue;
            }
            Optional<ObjectNode> stored = assistants.assistant(orgId, assistantId.asText());
            if (stored.isEmpty()) {
                unknown.add(where + "members." + i + ".assistantId " + assistantId.asText() + " does not exist");
            } else {
                read.put(assistantId.asText(), stored.get());
            }
        }
        if (!unknown.isEmpty()) {
            throw ApiException.invalid(unknown);
        }
        read.forEach((assistantId, stored) -> frozen.addObject().put("id", assistantId).set("assistant", stored));
    }

}
