package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.delivery.Deliveries;
import dev.voiceplane.call.delivery.Signatures;
import dev.voiceplane.call.delivery.Targets;
import dev.voiceplane.call.delivery.Target;
import dev.voiceplane.call.delivery.WebhookSender;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.contracts.call.ToolCallResults;
import dev.voiceplane.contracts.call.ToolCallsRequest;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The synchronous {@code tool-calls} server message (docs/calls.md, "Voice runtime contract"; docs/webhooks.md):
 * the voice runtime's function-tool calls, sent while the caller waits to the first called tool's
 * {@code server.url}, else the assistant's server, else the phone number's — the last two only when the assistant's
 * {@code serverMessages} has {@code tool-calls} (the default list does); a tool's own server is its tool, always
 * asked. Like every delivery it is signed with the organisation's Standard Webhooks secret next to the target's own
 * {@code x-vapi-secret}, goes only to a target the SSRF guard passes, follows no redirect, carries the server
 * object's headers, and is bounded by the server's {@code timeoutSeconds} (else {@code voice.call.tool-call-timeout},
 * the era's 20 s). Never queued, never retried: a tool acts. Every way it can fail becomes the calls' {@code error},
 * for the model to hear, never this route's failure.
 */
@ApplicationScoped
public class ToolCallRequests {

    private static final Logger LOG = Logger.getLogger(ToolCallRequests.class);
    public static final String TOOL_CALLS = "tool-calls";

    private final CallRepository calls;
    private final CallDocuments documents;
    private final Configurations configurations;
    private final CallViews views;
    private final Details details;
    private final Deliveries deliveries;
    private final Targets targets;
    private final ObjectMapper json;
    private final Duration timeout;

    public ToolCallRequests(CallRepository calls, CallDocuments documents, Configurations configurations,
            CallViews views, Details details, Deliveries deliveries, Targets targets, ObjectMapper json,
            @ConfigProperty(name = "voice.call.tool-call-timeout") Duration timeout) {
        this.calls = calls;
        this.documents = documents;
        this.configurations = configurations;
        this.views = views;
        this.details = details;
        this.deliveries = deliveries;
        this.targets = targets;
        this.json = json;
        this.timeout = timeout;
    }

    /**
     * A function tool a call's assistant offers, as frozen: its function's name and its definition (the JSON the
     * client wrote, which the {@code tool-calls} message carries on).
     */
    private record FunctionTool(String name, ObjectNode definition) {

        /** The tool, when {@code tool} is a function tool with a name. */
        static Optional<FunctionTool> of(JsonNode tool) {
            return tool instanceof ObjectNode object && "function".equals(tool.path("type").asText())
                    && tool.path("function").path("name").isTextual()
                    ? Optional.of(new FunctionTool(tool.path("function").path("name").asText(), object))
                    : Optional.empty();
        }

        /** The tool's own server ({@code server.url}), always asked when it has one. */
        Optional<Target> server() {
            return Target.server(definition);
        }

        /** The definition as the message shows it, with the call: the secret travels as x-vapi-secret only. */
        ObjectNode shown(ObjectNode toolCall) {
            ObjectNode shown = definition.deepCopy();
            if (shown.get("server") instanceof ObjectNode server) {
                server.remove("secret");
            }
            shown.set("toolCall", toolCall);
            return shown;
        }
    }

    /** What one request is about, read in the request's transaction; sent after it. */
    private record Prepared(ObjectNode body, Optional<Target> target, String noTarget, List<String> ids,
            List<String> names) {
    }

    public ToolCallResults send(String orgId, UUID callId, ToolCallsRequest request) {
        // Read in a transaction of its own, so no connection is held while the tool's server is waited for.
        Prepared prepared = QuarkusTransaction.requiringNew().call(() -> prepare(orgId, callId, request));
        if (prepared.target().isEmpty()) {
            return all(prepared, null, prepared.noTarget());
        }
        return deliver(orgId, callId, prepared, prepared.target().get());
    }

    private Prepared prepare(String orgId, UUID callId, ToolCallsRequest request) {
        Call call = calls.requireOwned(orgId, callId, CallManagement.RESOURCE);
        if (call.ended()) {
            throw ApiException.conflict("the call has ended; its tools are not called");
        }
        CallDocuments.Stored stored = documents.read(orgId, callId);
        ObjectNode configuration = configurations.read(stored.configuration(), call.sealingContext());
        FrozenConfiguration frozen = configurations.frozen(configuration);
        ObjectNode assistant = AssistantFreezing.withTools(configurations.effectiveAssistant(configuration),
                frozen.tools());
        Map<String, FunctionTool> tools = functionTools(assistant, configuration, frozen);

        List<String> unknown = new ArrayList<>();
        List<ToolCallsRequest.ToolCall> list = request.toolCallList();
        for (int i = 0; i < list.size(); i++) {
            if (!tools.containsKey(list.get(i).function().name())) {
                unknown.add("toolCallList." + i + ".function.name: the call's assistant has no function tool named "
                        + list.get(i).function().name());
            }
        }
        if (!unknown.isEmpty()) {
            throw ApiException.invalid(unknown);
        }

        ObjectNode body = json.createObjectNode();
        ObjectNode message = body.putObject("message");
        message.put("type", TOOL_CALLS);
        ArrayNode callList = message.putArray("toolCallList");
        ArrayNode withTools = message.putArray("toolWithToolCallList");
        List<String> ids = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ToolCallsRequest.ToolCall toolCall : list) {
            ObjectNode item = json.createObjectNode().put("id", toolCall.id()).put("type", "function");
            item.putObject("function").put("name", toolCall.function().name())
                    .set("arguments", arguments(toolCall.function().arguments()));
            callList.add(item);
            withTools.add(tools.get(toolCall.function().name()).shown(item.deepCopy()));
            ids.add(toolCall.id());
            names.add(toolCall.function().name());
        }
        message.set("call", json.valueToTree(views.view(call, stored)));
        ObjectNode row = details.read(call);
        JsonNode phoneNumber = details.internal(row).get("phoneNumber");
        if (phoneNumber != null) {
            message.set("phoneNumber", phoneNumber);
        }
        if (row.get("customer") != null) {
            message.set("customer", row.get("customer"));
        }
        message.put("timestamp", OrgScopedEntity.now().toString());

        Optional<Target> own = tools.get(list.get(0).function().name()).server();
        if (own.isPresent()) {
            return new Prepared(body, own, null, ids, names);
        }
        if (!AssistantSettings.of(assistant).asks(TOOL_CALLS)) {
            return new Prepared(body, Optional.empty(), "the tool has no server.url and the assistant's serverMessages"
                    + " leave out tool-calls, so no server was asked", ids, names);
        }
        Optional<Target> fallback = targets.choose(configuration);
        return new Prepared(body, fallback, "neither the tool, the assistant nor the phone number has a server URL",
                ids, names);
    }

    /** The function tools the call's assistants offer, by function name: the effective assistant's first. */
    private Map<String, FunctionTool> functionTools(ObjectNode assistant, ObjectNode configuration,
            FrozenConfiguration frozen) {
        Map<String, FunctionTool> tools = new LinkedHashMap<>();
        addFunctionTools(assistant, tools);
        // A squad's members may be handed the call; their tools are the call's too.
        for (SquadMember member : frozen.squadMembers()) {
            addFunctionTools(AssistantFreezing.withTools(configurations.member(configuration, member), frozen.tools()),
                    tools);
        }
        return tools;
    }

    private static void addFunctionTools(JsonNode assistant, Map<String, FunctionTool> tools) {
        for (JsonNode tool : assistant.path("model").path("tools")) {
            FunctionTool.of(tool).ifPresent(function -> tools.putIfAbsent(function.name(), function));
        }
    }

    /** The model's arguments as the receiver expects them: an object when they are one written as text. */
    private JsonNode arguments(JsonNode arguments) {
        if (arguments == null || arguments.isNull()) {
            return json.createObjectNode();
        }
        if (arguments.isTextual()) {
            try {
                JsonNode parsed = json.readTree(arguments.asText());
                if (parsed != null && parsed.isObject()) {
                    return parsed;
                }
            } catch (JsonProcessingException e) {
                // kept as the model wrote it
            }
        }
        return arguments;
    }

    private ToolCallResults deliver(String orgId, UUID callId, Prepared prepared, Target target) {
        Duration deadline = target.deadline(timeout);
        WebhookSender.Result sent;
        try {
            String text = json.writeValueAsString(prepared.body());
            String id = Ids.newId().toString();
            long timestamp = Instant.now().getEpochSecond();
            String signature = Signatures.sign(deliveries.secrets().signingKeys(orgId), id, timestamp, text);
            sent = deliveries.sender().send(target.url(),
                    WebhookSender.headers(target.headers(), id, timestamp, signature, target.secret()), text, deadline,
                    true);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool-calls message cannot be written as JSON", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return all(prepared, null, "the request was abandoned");
        }
        if (sent.kind() != WebhookSender.Kind.DELIVERED) {
            LOG.infof("call %s: tool-calls to %s failed: %s", callId, target, sent.error());
            return all(prepared, null, "the tool's server " + describe(sent, deadline));
        }
        JsonNode answer;
        try {
            answer = sent.body() == null || sent.body().length == 0 ? null : json.readTree(sent.body());
        } catch (java.io.IOException e) {
            answer = null;
        }
        if (answer == null || !answer.path("results").isArray()) {
            LOG.infof("call %s: tool-calls to %s answered no {\"results\": [...]}", callId, target);
            return all(prepared, null, "the tool's server answered no {\"results\": [...]}");
        }
        List<ToolCallResults.Result> results = new ArrayList<>();
        for (int i = 0; i < prepared.ids().size(); i++) {
            String toolCallId = prepared.ids().get(i);
            JsonNode found = null;
            for (JsonNode result : answer.path("results")) {
                if (toolCallId.equals(result.path("toolCallId").asText(null))) {
                    found = result;
                    break;
                }
            }
            String name = prepared.names().get(i);
            if (found == null) {
                results.add(new ToolCallResults.Result(toolCallId, name, null,
                        "the tool's server answered no result for this call"));
            } else if (found.hasNonNull("error") && !found.hasNonNull("result")) {
                results.add(new ToolCallResults.Result(toolCallId, name, null, text(found.get("error"))));
            } else if (found.has("result")) {
                results.add(new ToolCallResults.Result(toolCallId, name, text(found.get("result")), null));
            } else {
                results.add(new ToolCallResults.Result(toolCallId, name, null,
                        "the tool's server answered no result for this call"));
            }
        }
        return new ToolCallResults(results);
    }

    /** What the model hears; a timeout reads the same whichever of the sender's timers noticed it first. */
    private static String describe(WebhookSender.Result sent, Duration deadline) {
        String error = sent.error() == null ? "failed" : sent.error();
        if (error.startsWith("answered")) {
            return error;
        }
        if (error.startsWith("no answer within") || error.contains("timeout period")) {
            return "gave no answer within " + deadline.toMillis() + " ms";
        }
        return "could not be asked: " + error;
    }

    /** A result as the model reads it: text as it is, anything else as JSON. */
    private String text(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        return value.isTextual() ? value.asText() : value.toString();
    }

    private static ToolCallResults all(Prepared prepared, String result, String error) {
        List<ToolCallResults.Result> results = new ArrayList<>();
        for (int i = 0; i < prepared.ids().size(); i++) {
            results.add(new ToolCallResults.Result(prepared.ids().get(i), prepared.names().get(i), result, error));
        }
        return new ToolCallResults(results);
    }
}
