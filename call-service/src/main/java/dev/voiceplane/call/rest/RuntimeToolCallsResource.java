package dev.voiceplane.call.rest;

import dev.voiceplane.call.service.ToolCallRequests;
import dev.voiceplane.contracts.call.ToolCallResults;
import dev.voiceplane.contracts.call.ToolCallsRequest;
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
 * {@code POST /internal/call/{id}/runtime/tool-calls}: the voice runtime's function-tool calls, sent to the tool's
 * server while the caller waits (docs/calls.md, "Voice runtime contract"). Service token and {@code X-Voice-Org-Id};
 * never routed by the Ingress. Deliberately not transactional: nothing is written, and the wait for the tool's
 * server holds no connection.
 */
@Path("/internal/call/{id}/runtime/tool-calls")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RuntimeToolCallsResource {

    private final ToolCallRequests requests;
    private final CallerOrganisation caller;

    public RuntimeToolCallsResource(ToolCallRequests requests, CallerOrganisation caller) {
        this.requests = requests;
        this.caller = caller;
    }

    @POST
    public ToolCallResults toolCalls(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid ToolCallsRequest body) {
        return requests.send(caller.id(), Ids.existing(id, "Call"), body);
    }
}
