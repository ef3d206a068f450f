package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/** credential-service's internal routes; use them through {@link Credentials}. */
@RegisterRestClient(configKey = "credential-service")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal/credential")
@Produces(MediaType.APPLICATION_JSON)
public interface CredentialServiceApi {

    /** The organisation's credentials of one provider, newest first. */
    @GET
    ArrayNode byProvider(@HeaderParam(Authentication.ORG_HEADER) String orgId, @QueryParam("provider") String provider,
            @QueryParam("limit") int limit);

    /** One credential (without its secret): {@code {id, provider, ...}}. */
    @GET
    @Path("{id}")
    ObjectNode get(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);

    @GET
    @Path("{id}/secret")
    ObjectNode secret(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
