package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.List;
import java.util.function.Predicate;

/**
 * What the model vendors that take the system prompt apart and want the user's and the model's turns to alternate
 * (Anthropic's {@code messages}, Gemini's {@code contents}) do alike with the runtime's context: the system messages
 * that open it are the system prompt ({@link #systemPrompt}); the rest ({@link #conversation}) become turns, one per
 * run of messages of one role, each vendor writing its own parts ({@link #add}); a tool's result leads its turn
 * ({@link #addResult}); and a context that does not begin with the user's turn (the assistant greeted first, or no turn
 * yet) begins with one saying {@value #CALL_STARTED} ({@link #beginWith}).
 */
public final class AlternatingTurns {

    /** The user's turn that opens a context which does not begin with one. */
    public static final String CALL_STARTED = "(The call is connected.)";

    private final ArrayNode turns;
    private final String partsField;

    /** {@code turns}: the request's array of turns; {@code partsField}: the field of a turn holding its parts. */
    public AlternatingTurns(ArrayNode turns, String partsField) {
        this.turns = turns;
        this.partsField = partsField;
    }

    /** The system messages that open {@code messages}, joined by a blank line; empty when there are none. */
    public static String systemPrompt(List<ChatMessage> messages) {
        StringBuilder system = new StringBuilder();
        for (int i = 0; i < opening(messages); i++) {
            String content = messages.get(i).content();
            if (content != null && !content.isBlank()) {
                system.append(system.isEmpty() ? "" : "\n\n").append(content);
            }
        }
        return system.toString();
    }

    /** The messages after the opening system messages. */
    public static List<ChatMessage> conversation(List<ChatMessage> messages) {
        return messages.subList(opening(messages), messages.size());
    }

    private static int opening(List<ChatMessage> messages) {
        int first = 0;
        while (first < messages.size() && "system".equals(messages.get(first).role())) {
            first++;
        }
        return first;
    }

    /** Adds {@code part} to the last turn when it is {@code role}'s, else to a new turn of {@code role}. */
    public void add(String role, JsonNode part) {
        parts(role).add(part);
    }

    /** Adds a tool's result to {@code role}'s turn, after the results at its head ({@code isResult}), before the rest. */
    public void addResult(String role, JsonNode part, Predicate<JsonNode> isResult) {
        ArrayNode parts = parts(role);
        int at = 0;
        while (at < parts.size() && isResult.test(parts.get(at))) {
            at++;
        }
        parts.insert(at, part);
    }

    /** Unless the turns begin with {@code role}'s, begins them with a turn of {@code role} of {@code part} alone. */
    public void beginWith(String role, JsonNode part) {
        if (turns.isEmpty() || !role.equals(turns.get(0).path("role").asText())) {
            turns.insertObject(0).put("role", role).putArray(partsField).add(part);
        }
    }

    private ArrayNode parts(String role) {
        if (!turns.isEmpty() && role.equals(turns.get(turns.size() - 1).path("role").asText())) {
            return (ArrayNode) turns.get(turns.size() - 1).path(partsField);
        }
        return turns.addObject().put("role", role).putArray(partsField);
    }

    /** A tool call's arguments as the object the vendors want them as ({@code {}} when they are not one). */
    public static JsonNode arguments(ObjectMapper json, String text) {
        try {
            JsonNode parsed = text == null || text.isBlank() ? null : json.readTree(text);
            return parsed != null && parsed.isObject() ? parsed : json.createObjectNode();
        } catch (Exception e) {
            return json.createObjectNode();
        }
    }
}
