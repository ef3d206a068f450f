package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.delivery.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What call-service decides with from a call's frozen assistant (the effective one: overrides applied, see
 * {@link Configurations#effectiveAssistant}), read once from the JSON tree into types. The tree itself stays what
 * is stored and what the API and the runtime get back, as the client sent it; only these fields steer the code.
 *
 * @param maxDurationSeconds      {@code maxDurationSeconds}, when the assistant gives a number
 * @param serverMessages          the kinds of server messages asked for ({@code serverMessages}, else the default)
 * @param voicemailDetectionTypes the answering-machine results that count as voicemail, when the assistant names them
 * @param leavesVoicemailMessage  whether a {@code voicemailMessage} is to be left on an answering machine
 * @param analysisPlan            how the call is analysed once ended
 * @param systemPrompt            the first system message of {@code model.messages}, if any
 * @param providers               the {@code transcriber}, {@code model} and {@code voice} providers, in that order
 * @param server                  where the assistant's server messages go ({@code serverUrl} or {@code server}), if
 *                                anywhere
 * @param voicemailDetection      the {@code voicemailDetection} object, handed to telephony-service's dial as written
 */
public record AssistantSettings(OptionalInt maxDurationSeconds, List<String> serverMessages,
        Optional<List<String>> voicemailDetectionTypes, boolean leavesVoicemailMessage, AnalysisPlan analysisPlan,
        Optional<String> systemPrompt, Set<String> providers, Optional<Target> server,
        Optional<ObjectNode> voicemailDetection) {

    /** What the hosted platform sends when an assistant does not say (docs/api-reference.md, "Server messages"). */
    public static final List<String> DEFAULT_SERVER_MESSAGES =
            List.of("end-of-call-report", "status-update", "hang", "tool-calls");

    public AssistantSettings {
        serverMessages = List.copyOf(serverMessages);
        voicemailDetectionTypes = voicemailDetectionTypes.map(List::copyOf);
        providers = Collections.unmodifiableSet(new LinkedHashSet<>(providers)); // in order, as the runtime gets them
    }

    /**
     * The assistant's {@code analysisPlan}: each prompt when given as non-blank text, the rubric's name as given
     * ({@code PassFail} when absent), and the structured-data part, asked for when the plan has a schema or a prompt
     * for it (the schema stays the free-form JSON the client wrote: it is handed on, not decided on).
     */
    public record AnalysisPlan(Optional<String> summaryPrompt, Optional<String> successEvaluationPrompt,
            String successEvaluationRubric, boolean structuredDataAsked, Optional<String> structuredDataPrompt,
            Optional<JsonNode> structuredDataSchema) {

        static AnalysisPlan of(JsonNode plan) {
            JsonNode schema = plan.get("structuredDataSchema");
            return new AnalysisPlan(prompt(plan, "summaryPrompt"), prompt(plan, "successEvaluationPrompt"),
                    plan.path("successEvaluationRubric").asText("PassFail"),
                    schema != null || plan.has("structuredDataPrompt"), prompt(plan, "structuredDataPrompt"),
                    Optional.ofNullable(schema));
        }

        private static Optional<String> prompt(JsonNode plan, String field) {
            JsonNode value = plan.get(field);
            return value != null && value.isTextual() && !value.asText().isBlank()
                    ? Optional.of(value.asText())
                    : Optional.empty();
        }
    }

    /** The settings of an assistant as stored in a call's configuration (any JSON; absent fields take defaults). */
    public static AssistantSettings of(JsonNode assistant) {
        JsonNode max = assistant.get("maxDurationSeconds");
        return new AssistantSettings(
                max != null && max.isNumber() ? OptionalInt.of(max.intValue()) : OptionalInt.empty(),
                serverMessages(assistant.get("serverMessages")),
                texts(assistant.path("voicemailDetection").get("voicemailDetectionTypes")),
                !assistant.path("voicemailMessage").asText("").isBlank(),
                AnalysisPlan.of(assistant.path("analysisPlan")),
                systemPrompt(assistant),
                providers(assistant),
                Target.server(assistant),
                assistant.get("voicemailDetection") instanceof ObjectNode detection
                        ? Optional.of(detection) : Optional.empty());
    }

    /** {@code maxDurationSeconds}, else the service's default. */
    public int maxDurationSeconds(int fallback) {
        return maxDurationSeconds.orElse(fallback);
    }

    /** Whether the assistant asked for server messages of this kind. */
    public boolean asks(String kind) {
        return serverMessages.contains(kind);
    }

    private static List<String> serverMessages(JsonNode kinds) {
        return texts(kinds).orElse(DEFAULT_SERVER_MESSAGES);
    }

    /** The texts of a JSON array; empty when it is not one. */
    static Optional<List<String>> texts(JsonNode array) {
        if (array == null || !array.isArray()) {
            return Optional.empty();
        }
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return Optional.of(texts);
    }

    private static Optional<String> systemPrompt(JsonNode assistant) {
        for (JsonNode message : assistant.path("model").path("messages")) {
            if ("system".equals(message.path("role").asText())) {
                return Optional.ofNullable(message.path("content").asText(null));
            }
        }
        return Optional.empty();
    }

    /**
     * The stored tools an assistant (or overrides) names in {@code model.toolIds}, text only, in order: what the call
     * freezes and hands to the runtime with it.
     */
    static List<String> toolIds(JsonNode assistant) {
        List<String> ids = new ArrayList<>();
        for (JsonNode id : assistant.path("model").path("toolIds")) {
            if (id.isTextual()) {
                ids.add(id.asText());
            }
        }
        return ids;
    }

    private static Set<String> providers(JsonNode assistant) {
        Set<String> providers = new LinkedHashSet<>();
        for (String part : List.of("transcriber", "model", "voice")) {
            JsonNode provider = assistant.path(part).path("provider");
            if (provider.isTextual()) {
                providers.add(provider.asText());
            }
        }
        return providers;
    }
}
