package dev.voiceplane.call.rest;

import dev.voiceplane.call.api.RuntimeAddress;
import dev.voiceplane.call.service.Voicemails;
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
import java.util.HashMap;
import java.util.Map;

/**
 * {@code POST /internal/call/{id}/runtime/address}: the runtime replica that holds a call says where it is reached
 * (docs/calls.md, "Voice runtime contract"); the answer carries an answering-machine result that came before it
 * ({@code answeredBy}), so a machine detected before the address was known is not lost.
 */
@Path("/internal/call")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RuntimeAddressResource {

    private final Voicemails voicemails;
    private final CallerOrganisation caller;

    public RuntimeAddressResource(Voicemails voicemails, CallerOrganisation caller) {
        this.voicemails = voicemails;
        this.caller = caller;
    }

    @POST
    @Path("{id}/runtime/address")
    public Map<String, Object> address(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid RuntimeAddress body) {
        Map<String, Object> answer = new HashMap<>();
        answer.put("answeredBy", voicemails.runtimeAt(caller.id(), Ids.existing(id, "Call"), body.url()).orElse(null));
        return answer;
    }
}
