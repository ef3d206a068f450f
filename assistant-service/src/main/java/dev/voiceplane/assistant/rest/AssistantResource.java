package dev.voiceplane.assistant.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.assistant.api.AssistantView;
import dev.voiceplane.assistant.service.AssistantService;
import dev.voiceplane.contracts.assistant.AssistantBody;
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

/** {@code /assistant}: assistants of the caller's organisation. */
@Path("/assistant")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AssistantResource {

    private final AssistantService assistants;
    private final CallerOrganisation caller;

    public AssistantResource(AssistantService assistants, CallerOrganisation caller) {
        this.assistants = assistants;
        this.caller = caller;
    }

    @POST
    @ResponseStatus(201)
    @APIResponseSchema(value = AssistantView.class, responseCode = "201", responseDescription = "Created")
    public AssistantView create(@NotNull(message = RequestBodies.REQUIRED) @Valid AssistantBody body) {
        return assistants.create(caller.id(), body);
    }

    @GET
    public List<AssistantView> list(@Context UriInfo uri) {
        return assistants.list(caller.id(), ListParams.parse(uri.getQueryParameters()));
    }

    @GET
    @Path("{id}")
    public AssistantView get(@PathParam("id") String id) {
        return assistants.get(caller.id(), Ids.existing(id, "Assistant"));
    }

    /** Fields present replace, absent fields stay, {@code null} clears (see docs/assistants-and-squads.md). */
    @PATCH
    @Path("{id}")
    public AssistantView update(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) ObjectNode body) {
        return assistants.update(caller.id(), Ids.existing(id, "Assistant"), body);
    }

    @DELETE
    @Path("{id}")
    public AssistantView delete(@PathParam("id") String id) {
        return assistants.delete(caller.id(), Ids.existing(id, "Assistant"));
    }
}
