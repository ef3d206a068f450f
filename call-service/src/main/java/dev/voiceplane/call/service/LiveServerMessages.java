package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.domain.Call;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live server messages the voice runtime reports during a call (runtime event {@code server-message}, docs/calls.md
 * "Live messages"): {@code transcript}, {@code speech-update}, {@code conversation-update}, {@code model-output},
 * {@code user-interrupted}. Each is checked for its kind's fields, then written to the outbox like any other server
 * message (the assistant's {@code serverMessages} decide, the outbox numbers them per call, the delivery worker keeps
 * that order). Only the kind's own fields are taken: {@code call}, {@code phoneNumber}, {@code customer} and
 * {@code timestamp} are call-service's to add.
 */
@ApplicationScoped
public class LiveServerMessages {

    public static final String EVENT = "server-message";

    /** Each kind and its fields (the first of them required, as each kind's shape says). */
    private static final Map<String, List<String>> FIELDS = Map.of(
            "transcript", List.of("role", "transcriptType", "transcript"),
            "speech-update", List.of("status", "role"),
            "conversation-update", List.of("messages", "messagesOpenAIFormatted"),
            "model-output", List.of("output"),
            "user-interrupted", List.of());
    private static final List<String> KINDS = FIELDS.keySet().stream().sorted().toList();
    private static final Set<String> ROLES = Set.of("user", "assistant");

    private final ServerMessages messages;
    private final ObjectMapper json;

    public LiveServerMessages(ServerMessages messages, ObjectMapper json) {
        this.messages = messages;
        this.json = json;
    }

    /** What is wrong with a reported message (empty when nothing): each problem a sentence for the 400. */
    static List<String> problems(ObjectNode message) {
        List<String> problems = new ArrayList<>();
        if (message == null || !message.path("type").isTextual()) {
            problems.add("serverMessage must be an object with a type");
            return problems;
        }
        String type = message.get("type").asText();
        if (!FIELDS.containsKey(type)) {
            problems.add("serverMessage.type must be one of the following values: " + String.join(", ", KINDS));
            return problems;
        }
        switch (type) {
            case "transcript" -> {
                oneOf(problems, message, "role", ROLES);
                oneOf(problems, message, "transcriptType", Set.of("partial", "final"));
                if (!message.path("transcript").isTextual()) {
                    problems.add("serverMessage.transcript must be a string");
                }
            }
            case "speech-update" -> {
                oneOf(problems, message, "status", Set.of("started", "stopped"));
                oneOf(problems, message, "role", ROLES);
            }
            case "conversation-update" -> {
                for (String field : FIELDS.get(type)) {
                    if (!message.path(field).isArray()) {
                        problems.add("serverMessage." + field + " must be an array");
                    }
                }
            }
            case "model-output" -> {
                JsonNode output = message.get("output");
                if (output == null || output.isNull()) {
                    problems.add("serverMessage.output must be given");
                }
            }
            default -> {
            }
        }
        return problems;
    }

    private static void oneOf(List<String> problems, ObjectNode message, String field, Set<String> values) {
        if (!values.contains(message.path(field).asText(null))) {
            problems.add("serverMessage." + field + " must be one of the following values: "
                    + String.join(", ", values.stream().sorted().toList()));
        }
    }

    /**
     * Writes the message when the call is live and its assistant lists the kind; whether it was (a message after the
     * end is recorded and not sent: the end-of-call report has said everything by then).
     */
    boolean write(Call call, ObjectNode reported) {
        if (call.ended()) {
            return false;
        }
        String type = reported.get("type").asText();
        ObjectNode fields = json.createObjectNode();
        for (String field : FIELDS.get(type)) {
            JsonNode value = reported.get(field);
            if (value != null) {
                fields.set(field, value);
            }
        }
        return messages.live(call, type, fields);
    }
}
