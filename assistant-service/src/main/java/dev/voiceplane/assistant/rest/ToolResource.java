package dev.voiceplane.assistant.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.api.ToolView;
import dev.voiceplane.assistant.service.ToolService;
import dev.voiceplane.contracts.assistant.Tool;
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

/** {@code /tool}: tools of the caller's organisation. */
@Path("/tool")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ToolResource {

    private final ToolService tools;
    private final CallerOrganisation caller;

    public ToolResource(ToolService tools, CallerOrganisation caller) {
        this.tools = tools;
        this.caller = caller;
    }

    @POST
    @ResponseStatus(201)
    @APIResponseSchema(value = ToolView.class, responseCode = "201", responseDescription = "Created")
    public ToolView create(@NotNull(message = RequestBodies.REQUIRED) @Valid Tool body) {
        return tools.create(caller.id(), body);
    }

    @GET
    public List<ToolView> list(@Context UriInfo uri) {
        return tools.list(caller.id(), ListParams.parse(uri.getQueryParameters()));
    }

    @GET
    @Path("{id}")
    public ToolView get(@PathParam("id") String id) {
        return tools.get(caller.id(), Ids.existing(id, "Tool"));
    }

    /** Fields present replace, absent fields stay, {@code null} clears as for assistants; {@code type} cannot change (docs/assistants-and-squads.md "Tools"). */
    @PATCH
    @Path("{id}")
    public ToolView update(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) ObjectNode body) {
        return tools.update(caller.id(), Ids.existing(id, "Tool"), body);
    }

    @DELETE
    @Path("{id}")
    public ToolView delete(@PathParam("id") String id) {
        return tools.delete(caller.id(), Ids.existing(id, "Tool"));
    }
}
