package dev.voiceplane.contracts.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.EventReceipt;
import dev.voiceplane.contracts.telephony.InboundCallAnswer;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * call-service's internal routes ({@code InternalCallResource}): for telephony-service, inbound calls and carrier
 * events (docs/call-contracts.md, bodies from {@code contracts.telephony}; called through {@code CallRegistry}); for
 * the voice runtime, attaching to a call and its events (docs/calls.md, "Voice runtime contract"; called through
 * {@code ControlPlane}) and its function-tool calls (called through the runtime's {@code ToolCallClient}).
 *
 * <p>Not a REST client by itself: each caller registers its own, an interface extending this one
 * (docs/architecture.md, "Service-to-service calls"), so that a service registers only the peers it calls.
 */
@Path("/internal/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface CallServiceApi {

    /** The peer's name: its REST client's configuration key. */
    String PEER = "call-service";

    @POST
    @Path("inbound")
    InboundCallAnswer openInbound(@HeaderParam(Authentication.ORG_HEADER) String orgId, InboundCallRequest request);

    @POST
    @Path("events")
    EventReceipt report(@HeaderParam(Authentication.ORG_HEADER) String orgId, CarrierEvent event);

    /**
     * Attaches the runtime to a live call, once, and answers what the call runs with (call-service's
     * {@code RuntimeConfiguration}; read as JSON by the runtime, which takes the frozen configuration as it is).
     */
    @POST
    @Path("{id}/runtime/attach")
    JsonNode attach(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String callId);

    @POST
    @Path("{id}/runtime/events")
    EventReceipt runtimeEvent(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String callId,
            RuntimeEvent event);

    /**
     * Says where the replica that holds the call is reached ({@code {"url"}}, its internal base URL); answers
     * {@code {"answeredBy"}}, an answering-machine result that came before (null when none). docs/calls.md.
     */
    @POST
    @Path("{id}/runtime/address")
    JsonNode runtimeAddress(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String callId,
            java.util.Map<String, String> body);

    /**
     * Sends the model's function-tool calls to the tool's server (the {@code tool-calls} server message, signed,
     * guarded, with the server's deadline) and answers each call's result. Not idempotent (a tool acts): the
     * runtime calls it once, without the peer policy's retries, and waits as long as the tool's deadline.
     */
    @POST
    @Path("{id}/runtime/tool-calls")
    ToolCallResults toolCalls(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String callId,
            ToolCallsRequest request);

    /** Redirects the call's carrier call to a phone number and ends the call {@code assistant-forwarded-call}. */
    @POST
    @Path("{id}/runtime/transfer")
    RuntimeTransfer.Answer transfer(@HeaderParam(Authentication.ORG_HEADER) String orgId,
            @PathParam("id") String callId, RuntimeTransfer request);
}
