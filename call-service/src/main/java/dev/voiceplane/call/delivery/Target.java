package dev.voiceplane.call.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.assistant.ServerForms;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A receiver of server messages: its URL, the customer's secret for it (may be null), the custom headers of its
 * {@code server} object (empty when none) and its {@code timeoutSeconds} (null: the delivery's own timeout). Read
 * from a resource (an assistant's or a function tool's server) or a phone number; which one a call's message goes
 * to is {@link Targets}'s choice.
 */
public record Target(String url, String secret, Map<String, String> headers, Duration timeout) {

    public Target(String url, String secret) {
        this(url, secret, Map.of(), null);
    }

    /**
     * A resource's server (an assistant's or a function tool's), in either spelling (see {@link ServerForms}): its
     * URL and secret, and the {@code headers} and {@code timeoutSeconds} of its {@code server} object.
     */
    public static Optional<Target> server(JsonNode resource) {
        String url = ServerForms.url(resource);
        if (url == null) {
            return Optional.empty();
        }
        JsonNode server = resource.path("server");
        return Optional.of(new Target(url, ServerForms.secret(resource), headers(server.path("headers")),
                timeout(server.path("timeoutSeconds"))));
    }

    /** A number's server: its {@code serverUrl} and secret, headers and timeout; empty when it has no URL. */
    public static Optional<Target> server(PhoneNumberConfiguration number) {
        if (number.serverUrl() == null || number.serverUrl().isEmpty()) {
            return Optional.empty();
        }
        String secret = number.serverUrlSecret() == null || number.serverUrlSecret().isEmpty() ? null
                : number.serverUrlSecret();
        return Optional.of(new Target(number.serverUrl(), secret,
                number.serverHeaders() == null ? Map.of() : headers(number.serverHeaders()),
                number.serverTimeoutSeconds() == null ? null : seconds(number.serverTimeoutSeconds().doubleValue())));
    }

    /** The deadline of one attempt: the server's own timeout when it has one, else {@code otherwise}. */
    public Duration deadline(Duration otherwise) {
        return timeout != null ? timeout : otherwise;
    }

    /** The custom headers of a server object: string values only (validated when written). */
    public static Map<String, String> headers(JsonNode headers) {
        if (!headers.isObject() || headers.isEmpty()) {
            return Map.of();
        }
        Map<String, String> found = new LinkedHashMap<>();
        headers.fields().forEachRemaining(header -> {
            if (header.getValue().isTextual()) {
                found.put(header.getKey(), header.getValue().asText());
            }
        });
        return found;
    }

    static Duration timeout(JsonNode seconds) {
        return seconds.isNumber() ? seconds(seconds.asDouble()) : null;
    }

    private static Duration seconds(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    @Override
    public String toString() {
        return "Target[" + url + "]";
    }
}
