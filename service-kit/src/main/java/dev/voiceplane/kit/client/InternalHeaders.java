package dev.voiceplane.kit.client;

import dev.voiceplane.kit.http.RequestIds;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;
import org.jboss.logging.MDC;

/**
 * The headers of every call to another service's {@code /internal/} routes: the service token
 * ({@code VOICE_INTERNAL_TOKEN}) and the request id of the request being served, so that one id follows a request
 * through every service (trace context is added by OpenTelemetry's REST client instrumentation when it is on).
 * The organisation travels as an explicit {@code X-Voice-Org-Id} parameter of each client method, so that work
 * done outside a request (a worker, a sweeper) says for whom it asks.
 * Register with {@code @RegisterClientHeaders(InternalHeaders.class)}.
 */
@ApplicationScoped
public class InternalHeaders implements ClientHeadersFactory {

    private final String authorization;

    public InternalHeaders(@ConfigProperty(name = "voice.internal-token") Optional<String> internalToken) {
        this.authorization = "Bearer " + internalToken.orElse("");
    }

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming,
            MultivaluedMap<String, String> outgoing) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        headers.putSingle("Authorization", authorization);
        Object requestId = MDC.get(RequestIds.MDC_KEY);
        if (requestId != null) {
            headers.putSingle(RequestIds.HEADER, requestId.toString());
        }
        return headers;
    }
}
