package dev.voiceplane.telephony.client;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

/** Turns the other services' error statuses into {@link ServiceFailure}s that retry policies can tell apart. */
public class ServiceResponses implements ResponseExceptionMapper<ServiceFailure> {

    @Override
    public ServiceFailure toThrowable(Response response) {
        return ServiceFailure.of(response.getStatus());
    }

    @Override
    public boolean handles(int status, MultivaluedMap<String, Object> headers) {
        return status >= 300;
    }
}
