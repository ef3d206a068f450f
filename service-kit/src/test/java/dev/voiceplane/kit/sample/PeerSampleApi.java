package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** An internal route of a peer service, declared the way every service declares its clients. */
@RegisterRestClient(configKey = "peer-sample")
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
@Path("/internal/thing")
@Produces(MediaType.APPLICATION_JSON)
public interface PeerSampleApi {

    @GET
    @Path("{id}")
    Map<String, Object> thing(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
