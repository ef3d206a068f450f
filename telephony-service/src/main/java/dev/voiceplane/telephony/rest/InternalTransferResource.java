package dev.voiceplane.telephony.rest;

import dev.voiceplane.contracts.telephony.InlineTransferRequest;
import dev.voiceplane.contracts.telephony.TransferAnswer;
import dev.voiceplane.contracts.telephony.TransferRequest;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.telephony.service.CallTransfers;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /internal/phone-number/…/transfer}: for call-service, redirecting a live carrier call to a phone number
 * (docs/call-contracts.md §6). Service token and {@code X-Voice-Org-Id}; never routed by the Ingress.
 */
@Path("/internal/phone-number")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalTransferResource {

    private final CallTransfers transfers;
    private final CallerOrganisation caller;

    public InternalTransferResource(CallTransfers transfers, CallerOrganisation caller) {
        this.transfers = transfers;
        this.caller = caller;
    }

    @POST
    @Path("{id}/transfer")
    public TransferAnswer transfer(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid TransferRequest body) {
        return transfers.transfer(caller.id(), Ids.existing(id, "Phone number"), body);
    }

    @POST
    @Path("transfer-inline")
    public TransferAnswer transferInline(@NotNull(message = RequestBodies.REQUIRED) @Valid InlineTransferRequest body) {
        return transfers.transferInline(caller.id(), body);
    }
}
