package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.auth.Authentication;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** credential-service's internal secret read (it carries the provider too, so one call checks and reads); use them through {@link CredentialDirectory}. */
@RegisterRestClient(configKey = "credential-service")
@RegisterProvider(ServiceResponses.class)
@Path("/internal/credential")
@Produces(MediaType.APPLICATION_JSON)
public interface CredentialServiceApi {

    @GET
    @Path("{id}/secret")
    CredentialSecret secret(@HeaderParam("Authorization") String authorization,
            @HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
