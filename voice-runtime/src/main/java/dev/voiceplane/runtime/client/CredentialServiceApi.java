package dev.voiceplane.runtime.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** credential-service's internal reads of an organisation's provider keys; use them through {@link ControlPlane}. */
@RegisterRestClient(configKey = "credential-service")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal/credential")
@Produces(MediaType.APPLICATION_JSON)
public interface CredentialServiceApi {

    /** The organisation's credentials of one provider, newest first. */
    @GET
    JsonNode byProvider(@HeaderParam(Authentication.ORG_HEADER) String orgId, @QueryParam("provider") String provider,
            @QueryParam("limit") int limit);

    @GET
    @Path("{id}/secret")
    JsonNode secret(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
