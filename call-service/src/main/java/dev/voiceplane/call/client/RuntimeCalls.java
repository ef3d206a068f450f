package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.auth.Authentication;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Reaches the voice-runtime replica that holds a call, at the internal address it gave
 * ({@code POST /internal/call/{id}/runtime/address}); the runtime is scaled horizontally and a call lives on one
 * replica, so there is no fixed base URL to configure a REST client with. Service token and organisation as on every
 * internal route; a short deadline, since the caller (a carrier event) has a fallback.
 */
@ApplicationScoped
public class RuntimeCalls {

    private static final Logger LOG = Logger.getLogger(RuntimeCalls.class);
    private static final Duration DEADLINE = Duration.ofSeconds(3);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(DEADLINE)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String authorization;
    private final ObjectMapper json;

    public RuntimeCalls(@ConfigProperty(name = "voice.internal-token") Optional<String> token, ObjectMapper json) {
        this.authorization = "Bearer " + token.orElse("");
        this.json = json;
    }

    /** Tells the runtime a machine answered the call; whether it took it (2xx). */
    public boolean machineDetected(String runtimeUrl, String orgId, UUID callId, String answeredBy) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(runtimeUrl + "/internal/runtime/call/" + callId
                            + "/voicemail"))
                    .timeout(DEADLINE)
                    .header("Authorization", authorization)
                    .header(Authentication.ORG_HEADER, orgId)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(Map.of("answeredBy", answeredBy))))
                    .build();
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status / 100 != 2) {
                LOG.warnf("call %s: the runtime at %s answered %d to the machine detection", callId, runtimeUrl, status);
            }
            return status / 100 == 2;
        } catch (IOException | IllegalArgumentException e) {
            LOG.warnf("call %s: the runtime at %s could not be told of the machine: %s", callId, runtimeUrl, e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
