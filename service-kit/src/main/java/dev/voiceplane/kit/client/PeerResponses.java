package dev.voiceplane.kit.client;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

/**
 * Turns a peer's error statuses into {@link PeerFailure}s. Register it on every internal REST client
 * ({@code @RegisterProvider(PeerResponses.class)}), together with {@link InternalHeaders}.
 */
public class PeerResponses implements ResponseExceptionMapper<PeerFailure> {

    @Override
    public PeerFailure toThrowable(Response response) {
        return PeerFailure.of(response.getStatus());
    }

    @Override
    public boolean handles(int status, MultivaluedMap<String, Object> headers) {
        return status >= 300;
    }
}
