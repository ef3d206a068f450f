package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the assistant may transfer the call (a {@code transferCall} tool's {@code destinations}, a squad member's
 * {@code assistantDestinations}): another member of the squad by {@code assistantName}, or a phone {@code number}.
 * {@code message} is spoken before the transfer; {@code description} tells the model when to choose it.
 */
public record TransferDestination(String type, String assistantName, String number, String message,
        String description) {

    public static final String ASSISTANT = "assistant";
    public static final String NUMBER = "number";

    public boolean toNumber() {
        return NUMBER.equals(type);
    }

    /** What the model names the destination by: the number, or the assistant's name. */
    public String name() {
        return toNumber() ? number : assistantName;
    }

    /** The destinations of a JSON array; entries without the field of their type are left out. */
    public static List<TransferDestination> readAll(JsonNode array) {
        List<TransferDestination> destinations = new ArrayList<>();
        for (JsonNode entry : array) {
            String type = text(entry, "type");
            TransferDestination destination = new TransferDestination(type == null ? ASSISTANT : type,
                    text(entry, "assistantName"), text(entry, "number"), text(entry, "message"),
                    text(entry, "description"));
            if (destination.name() != null && (destination.toNumber() || ASSISTANT.equals(destination.type()))) {
                destinations.add(destination);
            }
        }
        return List.copyOf(destinations);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
    }
}
