package dev.voiceplane.telephony.rest;

import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.contracts.telephony.DialRequest;
import dev.voiceplane.contracts.telephony.HangupRequest;
import dev.voiceplane.contracts.telephony.InlineDialRequest;
import dev.voiceplane.contracts.telephony.InlineHangupRequest;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.telephony.service.InlineDials;
import dev.voiceplane.telephony.service.OutboundCalls;
import dev.voiceplane.telephony.service.PhoneNumberService;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * {@code /internal/phone-number}: for call-service (service token and {@code X-Voice-Org-Id}, never routed by the
 * Ingress). The contract is docs/call-contracts.md §3-§5 (§3 also for dial-inline).
 */
@Path("/internal/phone-number")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalPhoneNumberResource {

    private final PhoneNumberService numbers;
    private final OutboundCalls calls;
    private final InlineDials inline;
    private final CallerOrganisation caller;

    public InternalPhoneNumberResource(PhoneNumberService numbers, OutboundCalls calls, InlineDials inline,
            CallerOrganisation caller) {
        this.numbers = numbers;
        this.calls = calls;
        this.inline = inline;
        this.caller = caller;
    }

    @GET
    @Path("{id}")
    public PhoneNumberConfiguration configuration(@PathParam("id") String id) {
        return numbers.configuration(caller.id(), Ids.existing(id, "Phone number"));
    }

    /** 201 when this request placed the call, 200 with the same answer when an earlier one did. */
    @POST
    @Path("{id}/dial")
    public Response dial(@PathParam("id") String id, @NotNull(message = RequestBodies.REQUIRED) @Valid DialRequest body) {
        OutboundCalls.Dialled dialled = calls.dial(caller.id(), Ids.existing(id, "Phone number"), body);
        return Response.status(dialled.created() ? 201 : 200).entity(dialled.answer()).build();
    }

    /** A dial from a number given inline (not imported): the same answers as {@link #dial}. */
    @POST
    @Path("dial-inline")
    public Response dialInline(@NotNull(message = RequestBodies.REQUIRED) @Valid InlineDialRequest body) {
        OutboundCalls.Dialled dialled = inline.dial(caller.id(), body);
        return Response.status(dialled.created() ? 201 : 200).entity(dialled.answer()).build();
    }

    /** Ends a call dialled from an inline number: the same answers as {@link #hangUp}. */
    @POST
    @Path("hangup-inline")
    public Map<String, Object> hangUpInline(@NotNull(message = RequestBodies.REQUIRED) @Valid InlineHangupRequest body) {
        inline.hangUp(caller.id(), body.phoneCallProviderId());
        return Map.of("phoneCallProviderId", body.phoneCallProviderId(), "ended", true);
    }

    @POST
    @Path("{id}/hangup")
    public Map<String, Object> hangUp(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid HangupRequest body) {
        calls.hangUp(caller.id(), Ids.existing(id, "Phone number"), body.phoneCallProviderId());
        return Map.of("phoneCallProviderId", body.phoneCallProviderId(), "ended", true);
    }
}
