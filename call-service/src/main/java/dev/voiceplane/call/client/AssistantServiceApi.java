package dev.voiceplane.call.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
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

/** assistant-service's internal reads (docs/architecture.md); use it through {@link AssistantDirectory}. */
@RegisterRestClient(configKey = "assistant-service")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface AssistantServiceApi {

    @GET
    @Path("assistant/{id}")
    ObjectNode assistant(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);

    @GET
    @Path("squad/{id}")
    ObjectNode squad(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
