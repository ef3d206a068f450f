package dev.voiceplane.assistant.rest;

import dev.voiceplane.assistant.api.AssistantView;
import dev.voiceplane.assistant.api.SquadView;
import dev.voiceplane.assistant.service.AssistantService;
import dev.voiceplane.assistant.service.SquadService;
import dev.voiceplane.assistant.service.ToolService;
import dev.voiceplane.assistant.api.ToolView;
import java.util.List;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.lookup.IdLookup;
import dev.voiceplane.kit.lookup.IdLookupResult;
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
 * {@code /internal/assistant}, {@code /internal/squad} and {@code /internal/tool}: for call-service and telephony-service (service token
 * and {@code X-Voice-Org-Id}, never routed by the Ingress). Answers are scoped to that organisation, exactly as
 * the public routes are to the API key's.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalAssistantResource {

    private final AssistantService assistants;
    private final SquadService squads;
    private final ToolService tools;
    private final CallerOrganisation caller;

    public InternalAssistantResource(AssistantService assistants, SquadService squads, ToolService tools,
            CallerOrganisation caller) {
        this.assistants = assistants;
        this.squads = squads;
        this.tools = tools;
        this.caller = caller;
    }

    /**
     * The assistant as the public {@code GET /assistant/{id}} returns it, but with its webhook secrets opened
     * (call-service freezes them into a call, seals them and delivers with them); 404 when the organisation has none.
     */
    @GET
    @Path("assistant/{id}")
    public AssistantView assistant(@PathParam("id") String id) {
        return assistants.getWithSecrets(caller.id(), Ids.existing(id, "Assistant"));
    }

    /** Which of the ids are assistants of the organisation (for phone numbers and calls that name one). */
    @POST
    @Path("assistant/lookup")
    public IdLookupResult lookup(@NotNull(message = RequestBodies.REQUIRED) @Valid IdLookup body) {
        return assistants.lookup(caller.id(), body.ids());
    }

    /** The squad as the public {@code GET /squad/{id}} returns it, secrets opened (for calls made with a squadId). */
    @GET
    @Path("squad/{id}")
    public SquadView squad(@PathParam("id") String id) {
        return squads.getWithSecrets(caller.id(), Ids.existing(id, "Squad"));
    }

    /**
     * The organisation's tools among the ids, as {@code GET /tool/{id}} returns them but with their secrets opened,
     * in the order asked, each once; ids it does not have are left out (call-service freezes a call's
     * {@code model.toolIds} with this and names the missing ones in its 400).
     */
    @POST
    @Path("tool/resolve")
    public List<ToolView> resolveTools(@NotNull(message = RequestBodies.REQUIRED) @Valid IdLookup body) {
        return tools.resolve(caller.id(), body.ids());
    }
}
