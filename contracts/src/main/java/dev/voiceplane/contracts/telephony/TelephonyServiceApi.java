package dev.voiceplane.contracts.telephony;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.auth.Authentication;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * telephony-service's internal phone-number routes (telephony-service/docs/call-contracts.md §3-§6, summarised in
 * docs/calls.md); provided by {@code InternalPhoneNumberResource}, called by call-service through {@code Telephony}.
 *
 * <p>Not a REST client by itself: each caller registers its own, an interface extending this one
 * (docs/architecture.md, "Service-to-service calls"), so that a service registers only the peers it calls.
 */
@Path("/internal/phone-number")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface TelephonyServiceApi {

    /** The peer's name: its REST client's configuration key. */
    String PEER = "telephony-service";

    @GET
    @Path("{id}")
    PhoneNumberConfiguration configuration(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);

    /** {@code {callId, customer{number, extension}, voicemailDetection, maxDurationSeconds}} → {@code {callId,
     * phoneCallProvider, phoneCallProviderId, phoneCallProviderDetails}}; idempotent on callId. */
    @POST
    @Path("{id}/dial")
    ObjectNode dial(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id, ObjectNode request);

    /** The same with {@code phoneNumber}: an inline number's import body, secrets included (call-contracts.md, dial-inline). */
    @POST
    @Path("dial-inline")
    ObjectNode dialInline(@HeaderParam(Authentication.ORG_HEADER) String orgId, ObjectNode request);

    /** {@code {phoneCallProviderId, phoneNumber}}: end a carrier call placed from an inline number (docs/calls.md "Inline phone number"). */
    @POST
    @Path("hangup-inline")
    ObjectNode hangUpInline(@HeaderParam(Authentication.ORG_HEADER) String orgId, ObjectNode request);

    /** {@code {phoneCallProviderId}}: end this carrier call of the number. */
    @POST
    @Path("{id}/hangup")
    ObjectNode hangUp(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id, ObjectNode request);

    /** {@code {phoneCallProviderId, number}}: redirect this live carrier call of the number to {@code number}. */
    @POST
    @Path("{id}/transfer")
    TransferAnswer transfer(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id,
            TransferRequest request);

    /** The same for a call dialled from an inline number (docs/call-contracts.md §6). */
    @POST
    @Path("transfer-inline")
    TransferAnswer transferInline(@HeaderParam(Authentication.ORG_HEADER) String orgId, InlineTransferRequest request);
}
