package dev.voiceplane.assistant.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.api.SquadView;
import dev.voiceplane.assistant.service.SquadService;
import dev.voiceplane.contracts.assistant.SquadBody;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.jboss.resteasy.reactive.ResponseStatus;

/** {@code /squad}: squads of the caller's organisation. */
@Path("/squad")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SquadResource {

    private final SquadService squads;
    private final CallerOrganisation caller;

    public SquadResource(SquadService squads, CallerOrganisation caller) {
        this.squads = squads;
        this.caller = caller;
    }

    @POST
    @ResponseStatus(201)
    @APIResponseSchema(value = SquadView.class, responseCode = "201", responseDescription = "Created")
    public SquadView create(@NotNull(message = RequestBodies.REQUIRED) @Valid SquadBody body) {
        return squads.create(caller.id(), body);
    }

    @GET
    public List<SquadView> list(@Context UriInfo uri) {
        return squads.list(caller.id(), ListParams.parse(uri.getQueryParameters()));
    }

    @GET
    @Path("{id}")
    public SquadView get(@PathParam("id") String id) {
        return squads.get(caller.id(), Ids.existing(id, "Squad"));
    }

    @PATCH
    @Path("{id}")
    public SquadView update(@PathParam("id") String id, @NotNull(message = RequestBodies.REQUIRED) ObjectNode body) {
        return squads.update(caller.id(), Ids.existing(id, "Squad"), body);
    }

    @DELETE
    @Path("{id}")
    public SquadView delete(@PathParam("id") String id) {
        return squads.delete(caller.id(), Ids.existing(id, "Squad"));
    }
}
