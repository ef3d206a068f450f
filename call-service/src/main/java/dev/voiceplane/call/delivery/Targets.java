package dev.voiceplane.call.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.repository.CallConfigurationReads;
import dev.voiceplane.call.repository.DeliveryStore;
import dev.voiceplane.call.service.AssistantSettings;
import dev.voiceplane.call.service.Configurations;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a call's server message goes (docs/webhooks.md, "Where a message goes"): the tool's {@code server.url} (a
 * message about a tool call) &gt; the assistant's {@code serverUrl} (the call's effective assistant: overrides applied,
 * a squad's first member) &gt; the phone number's {@code serverUrl}, each with its own secret for
 * {@code x-vapi-secret}, and the custom {@code headers} and {@code timeoutSeconds} of its {@code server} object
 * (either spelling of the server counts, see {@link Target#server(JsonNode)}). Which kinds are sent at all is decided
 * once, when the message is written (ServerMessages, the assistant's {@code serverMessages}). A call's configuration
 * is frozen at creation, so the answer is kept per call.
 *
 * <p>The receiver itself, {@link Target}, is a file of its own: the call's settings ({@code AssistantSettings})
 * read one, and this class reads those settings, so the dependency runs one way ({@code ImportCirclesTest}).
 */
@ApplicationScoped
public class Targets {

    private static final int CACHED_CALLS = 10_000;

    private final CallConfigurationReads reads;
    private final Configurations configurations;
    private final ConcurrentHashMap<UUID, Optional<Target>> byCall = new ConcurrentHashMap<>();

    public Targets(CallConfigurationReads reads, Configurations configurations) {
        this.reads = reads;
        this.configurations = configurations;
    }

    /** The target of a message of the call, empty when neither the tool, the assistant nor the number has one. */
    public Optional<Target> of(String orgId, UUID callId, JsonNode message) {
        Optional<Target> tool = toolServer(message);
        if (tool.isPresent()) {
            return tool;
        }
        Optional<Target> known = byCall.get(callId);
        if (known != null) {
            return known;
        }
        Optional<Target> target = read(orgId, callId).map(this::choose).orElse(Optional.empty());
        if (byCall.size() >= CACHED_CALLS) {
            byCall.clear();
        }
        byCall.put(callId, target);
        return target;
    }

    /**
     * Reads, in one query, the configurations of the calls of a claimed batch that are not known yet, so the sends
     * of the batch find their targets without a query each.
     */
    public void prepare(List<DeliveryStore.Claimed> batch) {
        Map<UUID, String> missing = new LinkedHashMap<>();
        for (DeliveryStore.Claimed message : batch) {
            if (!byCall.containsKey(message.callId())) {
                missing.putIfAbsent(message.callId(), message.orgId());
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        Map<UUID, Optional<Target>> found = new HashMap<>();
        reads.configurations(missing).forEach((callId, text) -> found.put(callId,
                choose(configurations.read(text, "call:" + missing.get(callId) + ":" + callId))));
        if (byCall.size() + missing.size() > CACHED_CALLS) {
            byCall.clear();
        }
        // A call without configuration has no target (as of() answers for it).
        missing.keySet().forEach(callId -> byCall.put(callId, found.getOrDefault(callId, Optional.empty())));
    }

    /** Assistant {@code serverUrl} &gt; phone number {@code serverUrl}, for a call's opened configuration. */
    public Optional<Target> choose(ObjectNode configuration) {
        Optional<Target> own = AssistantSettings.of(configurations.effectiveAssistant(configuration)).server();
        if (own.isPresent()) {
            return own;
        }
        return configurations.frozen(configuration).phoneNumber().flatMap(Target::server);
    }

    /** A {@code tool-calls}-like message names its tools: the first with a server URL wins. */
    static Optional<Target> toolServer(JsonNode message) {
        for (JsonNode entry : message.path("message").path("toolWithToolCallList")) {
            JsonNode server = entry.path("tool").path("server");
            Optional<Target> target = target(server, "url", "secret");
            if (target.isPresent()) {
                return Optional.of(new Target(target.get().url(), target.get().secret(),
                        Target.headers(server.path("headers")), Target.timeout(server.path("timeoutSeconds"))));
            }
        }
        return Optional.empty();
    }

    private static Optional<Target> target(JsonNode node, String urlField, String secretField) {
        String url = node.path(urlField).asText("");
        if (url.isEmpty()) {
            return Optional.empty();
        }
        JsonNode secret = node.get(secretField);
        return Optional.of(new Target(url, secret == null || secret.isNull() ? null : secret.asText()));
    }

    private Optional<ObjectNode> read(String orgId, UUID callId) {
        return reads.configuration(orgId, callId)
                .map(text -> configurations.read(text, "call:" + orgId + ":" + callId));
    }
}
