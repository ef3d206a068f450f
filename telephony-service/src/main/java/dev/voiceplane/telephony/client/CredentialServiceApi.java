package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * credential-service's internal secret read (it carries the provider too, so one call checks and reads); use it
 * through {@link CredentialDirectory}.
 */
@RegisterRestClient(configKey = "credential-service")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal/credential")
@Produces(MediaType.APPLICATION_JSON)
public interface CredentialServiceApi {

    @GET
    @Path("{id}/secret")
    CredentialSecret secret(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
