package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.delivery.Deliveries;
import dev.voiceplane.call.delivery.Signatures;
import dev.voiceplane.call.delivery.WebhookSender;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The synchronous {@code assistant-request} server message (docs/api-reference.md, "Server messages"): sent for an
 * inbound call whose number has no assistant, to the number's server URL with its secret in {@code x-vapi-secret},
 * answered within the era's 7.5 s (or the number's {@code server.timeoutSeconds}) or not at all, with the
 * {@code server} object's custom headers. Never queued, never retried. Like every delivery (docs/webhooks.md) it
 * is signed with the organisation's Standard Webhooks secret, the target passes the SSRF guard on its resolved address,
 * redirects are not followed and at most {@code voice.webhook.max-response-bytes} of the answer are read.
 */
@ApplicationScoped
public class AssistantRequests {

    private static final Logger LOG = Logger.getLogger(AssistantRequests.class);

    private final ObjectMapper json;
    private final Duration timeout;
    private final Deliveries deliveries;

    public AssistantRequests(ObjectMapper json, Deliveries deliveries,
            @ConfigProperty(name = "voice.call.assistant-request-timeout") Duration timeout) {
        this.json = json;
        this.deliveries = deliveries;
        this.timeout = timeout;
    }

    /** The receiver's answer as JSON; empty when it failed, timed out, or did not answer a JSON object with 2xx. */
    public Optional<ObjectNode> ask(PhoneNumberConfiguration number, ObjectNode message) {
        try {
            ObjectNode body = json.createObjectNode();
            body.set("message", message);
            String text = json.writeValueAsString(body);
            String id = Ids.newId().toString();
            long timestamp = Instant.now().getEpochSecond();
            // The call being decided on belongs to the organisation the number belongs to.
            String orgId = message.path("call").path("orgId").asText(number.orgId());
            String signature = Signatures.sign(deliveries.secrets().signingKeys(orgId), id, timestamp, text);
            // The number's server object may carry custom headers and its own timeout (docs/webhooks.md).
            java.util.Map<String, String> custom = dev.voiceplane.call.delivery.Target.headers(
                    number.serverHeaders() == null ? json.nullNode() : number.serverHeaders());
            Duration deadline = number.serverTimeoutSeconds() == null ? timeout
                    : Duration.ofMillis(number.serverTimeoutSeconds().movePointRight(3).longValue());
            WebhookSender.Result result = deliveries.sender().send(number.serverUrl(),
                    WebhookSender.headers(custom, id, timestamp, signature, number.serverUrlSecret()), text, deadline,
                    true);
            if (result.kind() != WebhookSender.Kind.DELIVERED) {
                LOG.infof("assistant-request to phone number %s failed: %s", number.id(), result.error());
                return Optional.empty();
            }
            if (result.body() == null || result.body().length == 0) {
                return Optional.empty();
            }
            JsonNode parsed = json.readTree(result.body());
            return parsed instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
        } catch (JsonProcessingException e) {
            LOG.infof("assistant-request to phone number %s answered no JSON object", number.id());
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.infof("assistant-request to phone number %s failed: %s", number.id(), e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
