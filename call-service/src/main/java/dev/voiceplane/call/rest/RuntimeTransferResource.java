package dev.voiceplane.call.rest;

import dev.voiceplane.call.service.CallTransfers;
import dev.voiceplane.contracts.call.RuntimeTransfer;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /internal/call/{id}/runtime/transfer}: for the voice runtime, when the assistant transfers a phone call
 * to a number (docs/calls.md, "Voice runtime contract"). Service token and {@code X-Voice-Org-Id}.
 */
@Path("/internal/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RuntimeTransferResource {

    private final CallTransfers transfers;
    private final CallerOrganisation caller;

    public RuntimeTransferResource(CallTransfers transfers, CallerOrganisation caller) {
        this.transfers = transfers;
        this.caller = caller;
    }

    @POST
    @Path("{id}/runtime/transfer")
    public RuntimeTransfer.Answer transfer(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid RuntimeTransfer body) {
        return transfers.transfer(caller.id(), Ids.existing(id, "Call"), body);
    }
}
