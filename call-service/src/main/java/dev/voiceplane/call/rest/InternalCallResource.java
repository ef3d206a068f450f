package dev.voiceplane.call.rest;

import dev.voiceplane.call.api.RuntimeConfiguration;
import dev.voiceplane.call.api.RuntimeEvent;
import dev.voiceplane.call.service.CarrierEvents;
import dev.voiceplane.call.service.InboundCalls;
import dev.voiceplane.call.service.RuntimeConfigurations;
import dev.voiceplane.call.service.RuntimeEvents;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.EventReceipt;
import dev.voiceplane.contracts.telephony.InboundCallAnswer;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /internal/call}: for telephony-service (inbound calls, carrier events) and the voice runtime (what a call
 * runs with, what happened in it). Service token and {@code X-Voice-Org-Id}; never routed by the Ingress. The
 * contracts are in docs/calls.md.
 */
@Path("/internal/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalCallResource {

    private final InboundCalls inbound;
    private final CarrierEvents carrierEvents;
    private final RuntimeConfigurations runtime;
    private final RuntimeEvents runtimeEvents;
    private final CallerOrganisation caller;

    public InternalCallResource(InboundCalls inbound, CarrierEvents carrierEvents, RuntimeConfigurations runtime,
            RuntimeEvents runtimeEvents, CallerOrganisation caller) {
        this.inbound = inbound;
        this.carrierEvents = carrierEvents;
        this.runtime = runtime;
        this.runtimeEvents = runtimeEvents;
        this.caller = caller;
    }

    /** A carrier is ringing one of the organisation's numbers: open the call (idempotent on the carrier's call id). */
    @POST
    @Path("inbound")
    public InboundCallAnswer openInbound(@NotNull(message = RequestBodies.REQUIRED) @Valid InboundCallRequest body) {
        return inbound.open(caller.id(), body);
    }

    /** One carrier event; 404 for a call this service does not know. */
    @POST
    @Path("events")
    public EventReceipt carrierEvent(@NotNull(message = RequestBodies.REQUIRED) @Valid CarrierEvent body) {
        return carrierEvents.report(caller.id(), body);
    }

    @GET
    @Path("{id}/runtime")
    public RuntimeConfiguration runtime(@PathParam("id") String id) {
        return runtime.of(caller.id(), Ids.existing(id, "Call"));
    }

    @POST
    @Path("{id}/runtime/attach")
    public RuntimeConfiguration attachRuntime(@PathParam("id") String id) {
        return runtime.attach(caller.id(), Ids.existing(id, "Call"));
    }

    @POST
    @Path("{id}/runtime/events")
    public EventReceipt runtimeEvent(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid RuntimeEvent body) {
        return runtimeEvents.report(caller.id(), Ids.existing(id, "Call"), body);
    }
}
