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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /**
     * Freezes the assistant or squad (and the stored assistants a squad names) into the call's configuration, and
     * the stored tools their {@code model.toolIds} name ({@code tools}: [{id, tool}], see {@link #withTools}).
     */
    public void freeze(String orgId, CallRequest body, ObjectNode configuration) {
        freezeAssistants(orgId, body, configuration);
        freezeTools(orgId, configuration);
    }

    private void freezeAssistants(String orgId, CallRequest body, ObjectNode configuration) {
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
        List<SquadMember> members = SquadMember.all(squad);
        for (int i = 0; i < members.size(); i++) {
            String assistantId = members.get(i).assistantId().orElse(null);
            if (assistantId == null || read.containsKey(assistantId)) {
                continue;
            }
            Optional<ObjectNode> stored = assistants.assistant(orgId, assistantId);
            if (stored.isEmpty()) {
                unknown.add(where + "members." + i + ".assistantId " + assistantId + " does not exist");
            } else {
                read.put(assistantId, stored.get());
            }
        }
        if (!unknown.isEmpty()) {
            throw ApiException.invalid(unknown);
        }
        read.forEach((assistantId, stored) -> frozen.addObject().put("id", assistantId).set("assistant", stored));
    }


    /**
     * Reads, in one request, every tool the frozen assistants name in {@code model.toolIds} (the assistant, its
     * overrides, each squad member's inline assistant, overrides and stored assistant); an id the organisation
     * has no tool for is a 400 naming it. A later change of a tool does not change the call.
     */
    private void freezeTools(String orgId, ObjectNode configuration) {
        Set<String> named = new LinkedHashSet<>();
        for (JsonNode assistant : assistantsIn(configuration)) {
            named.addAll(AssistantSettings.toolIds(assistant));
        }
        if (named.isEmpty()) {
            return;
        }
        Map<String, ObjectNode> found = assistants.tools(orgId, new ArrayList<>(named));
        List<String> unknown = named.stream().filter(id -> !found.containsKey(id))
                .map(id -> "model.toolIds: tool " + id + " does not exist").toList();
        if (!unknown.isEmpty()) {
            throw ApiException.invalid(unknown);
        }
        ArrayNode tools = configuration.putArray("tools");
        named.forEach(id -> tools.addObject().put("id", id).set("tool", found.get(id)));
    }

    private static List<JsonNode> assistantsIn(ObjectNode configuration) {
        List<JsonNode> found = new ArrayList<>();
        found.add(configuration.path("assistant"));
        found.add(configuration.path("assistantOverrides"));
        for (SquadMember member : SquadMember.all(configuration.get("squad"))) {
            member.assistant().ifPresent(found::add);
            member.assistantOverrides().ifPresent(found::add);
        }
        for (JsonNode stored : configuration.path("squadAssistants")) {
            found.add(stored.path("assistant"));
        }
        return found;
    }

    /**
     * An assistant as the voice runtime runs it: its inline {@code model.tools} followed by the frozen tools its
     * {@code model.toolIds} name ({@link FrozenConfiguration#tools}), in one list.
     */
    public static ObjectNode withTools(ObjectNode assistant, Map<String, ObjectNode> frozenTools) {
        if (!(assistant.path("model") instanceof ObjectNode model) || !model.path("toolIds").isArray()
                || model.path("toolIds").isEmpty()) {
            return assistant;
        }
        ArrayNode tools = model.get("tools") instanceof ArrayNode inline ? inline : model.putArray("tools");
        for (String toolId : AssistantSettings.toolIds(assistant)) {
            ObjectNode tool = frozenTools.get(toolId);
            if (tool != null) {
                tools.add(tool.deepCopy());
            }
        }
        return assistant;
    }
}
