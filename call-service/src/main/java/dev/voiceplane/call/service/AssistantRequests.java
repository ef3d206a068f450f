package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.contract.telephony.PhoneNumberConfiguration;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The synchronous {@code assistant-request} server message (compatibility.md §8): sent for an inbound call whose
 * number has no assistant, to the number's server URL with its secret in {@code x-vapi-secret}, answered within
 * the era's 7.5 s or not at all. Never queued, never retried, redirects not followed, at most 1 MiB of answer read.
 * (The Standard Webhooks signature and the SSRF guard of the delivery worker, issue 12, apply here too once they exist.)
 */
@ApplicationScoped
public class AssistantRequests {

    private static final Logger LOG = Logger.getLogger(AssistantRequests.class);
    private static final int MAX_ANSWER_BYTES = 1 << 20;

    private final ObjectMapper json;
    private final Duration timeout;
    private final HttpClient http;

    public AssistantRequests(ObjectMapper json,
            @ConfigProperty(name = "voice.call.assistant-request-timeout") Duration timeout) {
        this.json = json;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The receiver's answer as JSON; empty when it failed, timed out, or did not answer a JSON object with 2xx. */
    public Optional<ObjectNode> ask(PhoneNumberConfiguration number, ObjectNode message) {
        try {
            ObjectNode body = json.createObjectNode();
            body.set("message", message);
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(number.serverUrl()))
                    .timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
            if (number.serverUrlSecret() != null && !number.serverUrlSecret().isEmpty()) {
                request.header("x-vapi-secret", number.serverUrlSecret());
            }
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream answer = response.body()) {
                if (response.statusCode() / 100 != 2) {
                    LOG.infof("assistant-request to phone number %s answered %d", number.id(), response.statusCode());
                    return Optional.empty();
                }
                byte[] bytes = answer.readNBytes(MAX_ANSWER_BYTES + 1);
                if (bytes.length > MAX_ANSWER_BYTES) {
                    return Optional.empty();
                }
                JsonNode parsed = json.readTree(bytes);
                return parsed instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
            }
        } catch (IOException | IllegalArgumentException e) {
            LOG.infof("assistant-request to phone number %s failed: %s", number.id(), e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
