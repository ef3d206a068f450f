package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One member of a squad call, as call-service's runtime configuration gives it ({@code squad.members[]}: the
 * member's assistant with its {@code assistantOverrides} and the call's applied, its {@code assistantDestinations},
 * its {@code variableValues}): its {@code name} (what destinations call it by), the plan it runs with, and where it
 * may hand the call.
 */
public record SquadMember(String name, CallPlan plan, List<TransferDestination> destinations) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every member of the configuration's squad, in order (the first starts the call); empty for an assistant call. */
    static List<SquadMember> readAll(UUID callId, String orgId, JsonNode configuration) {
        JsonNode members = configuration.path("squad").path("members");
        if (!members.isArray() || members.isEmpty()) {
            return List.of();
        }
        List<SquadMember> squad = new ArrayList<>();
        for (JsonNode member : members) {
            JsonNode assistant = member.path("assistant");
            // The member's plan is read as a call of that assistant alone: the same defaults, its own variables.
            ObjectNode alone = JSON.createObjectNode();
            alone.set("call", configuration.path("call"));
            alone.set("assistant", withHandOffs(assistant, member));
            JsonNode variables = member.has("variableValues") ? member.get("variableValues")
                    : configuration.get("variableValues");
            if (variables != null) {
                alone.set("variableValues", variables);
            }
            String name = assistant.path("name").isTextual() ? assistant.path("name").asText() : null;
            squad.add(new SquadMember(name, CallPlan.read(callId, orgId, alone),
                    TransferDestination.readAll(member.path("assistantDestinations"))));
        }
        return List.copyOf(squad);
    }

    /**
     * The member's assistant offering its {@code assistantDestinations} as {@code transferCall} destinations: added to
     * its own {@code transferCall} tool when it has one, else as one of its own. Unchanged without destinations.
     */
    static JsonNode withHandOffs(JsonNode assistant, JsonNode member) {
        JsonNode destinations = member.path("assistantDestinations");
        if (!destinations.isArray() || destinations.isEmpty() || !assistant.isObject()) {
            return assistant;
        }
        ObjectNode copy = assistant.deepCopy();
        ObjectNode model = copy.get("model") instanceof ObjectNode existing ? existing : copy.putObject("model");
        ArrayNode tools = model.get("tools") instanceof ArrayNode existing ? existing : model.putArray("tools");
        ObjectNode transfer = null;
        for (JsonNode tool : tools) {
            if ("transferCall".equals(tool.path("type").asText()) && tool instanceof ObjectNode object) {
                transfer = object;
                break;
            }
        }
        if (transfer == null) {
            transfer = tools.addObject().put("type", "transferCall");
        }
        ArrayNode list = transfer.get("destinations") instanceof ArrayNode existing ? existing
                : transfer.putArray("destinations");
        destinations.forEach(destination -> list.add(destination.deepCopy()));
        return copy;
    }
}
