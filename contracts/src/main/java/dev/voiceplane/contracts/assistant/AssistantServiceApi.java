package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.auth.Authentication;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.voiceplane.kit.lookup.IdLookup;
import dev.voiceplane.kit.lookup.IdLookupResult;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * assistant-service's internal routes ({@code InternalAssistantResource}): the stored
 * configuration of an assistant or squad (call-service freezes it into a call) and which ids are assistants of the
 * organisation (telephony-service checks a number's {@code assistantId}). Call it through a
 * {@link dev.voiceplane.kit.client.Peer}.
 *
 * <p>Not a REST client by itself: each caller registers its own, an interface extending this one
 * (docs/architecture.md, "Service-to-service calls"), so that a service registers only the peers it calls.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface AssistantServiceApi {

    /** The peer's name: its REST client's configuration key. */
    String PEER = "assistant-service";

    @GET
    @Path("assistant/{id}")
    ObjectNode assistant(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);

    @GET
    @Path("squad/{id}")
    ObjectNode squad(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);

    /** Which of the request's ids are assistants of the organisation. */
    @POST
    @Path("assistant/lookup")
    IdLookupResult lookup(@HeaderParam(Authentication.ORG_HEADER) String orgId, IdLookup request);

    /** The organisation's tools among the ids, secrets opened; ids it does not have are left out. */
    @POST
    @Path("tool/resolve")
    ArrayNode resolveTools(@HeaderParam(Authentication.ORG_HEADER) String orgId, IdLookup ids);
}
