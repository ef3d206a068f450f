package dev.voiceplane.runtime.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** call-service's runtime routes (docs/calls.md, "Voice runtime contract"); use them through {@link ControlPlane}. */
@RegisterRestClient(configKey = "call-service")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface CallServiceApi {

    /** Attaches the runtime to a live call, once, and answers what the call runs with. */
    @POST
    @Path("{id}/runtime/attach")
    JsonNode attach(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String callId);

    @POST
    @Path("{id}/runtime/events")
    JsonNode report(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String callId,
            RuntimeEvent event);
}
