package dev.voiceplane.file.rest;

import dev.voiceplane.contracts.file.PassageSearch;
import dev.voiceplane.contracts.file.Passages;
import dev.voiceplane.file.service.KnowledgeSearch;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.RequestBodies;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /internal/file/search}: the knowledge-base search the voice runtime asks once per caller turn
 * (docs/files.md, "Knowledge-base search"); service token and {@code X-Voice-Org-Id}, scoped to that organisation.
 */
@Path("/internal/file/search")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalSearchResource {

    private final KnowledgeSearch search;
    private final CallerOrganisation caller;

    public InternalSearchResource(KnowledgeSearch search, CallerOrganisation caller) {
        this.search = search;
        this.caller = caller;
    }

    @POST
    public Passages search(@NotNull(message = RequestBodies.REQUIRED) @Valid PassageSearch body) {
        return search.search(caller.id(), body);
    }
}
