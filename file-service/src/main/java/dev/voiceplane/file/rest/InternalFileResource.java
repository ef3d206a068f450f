package dev.voiceplane.file.rest;

import dev.voiceplane.file.api.FileTextView;
import dev.voiceplane.file.service.FileService;
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
 * {@code /internal/file}: for other services (service token + {@code X-Voice-Org-Id}, never routed by the Ingress),
 * scoped to that organisation exactly as the public routes are to the API key's.
 */
@Path("/internal/file")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class InternalFileResource {

    private final FileService files;
    private final CallerOrganisation caller;

    public InternalFileResource(FileService files, CallerOrganisation caller) {
        this.files = files;
        this.caller = caller;
    }

    /** Which of the ids are files of the organisation (assistant-service checks knowledge-base file ids). */
    @POST
    @Path("lookup")
    public IdLookupResult lookup(@NotNull(message = RequestBodies.REQUIRED) @Valid IdLookup body) {
        return files.lookup(caller.id(), body.ids());
    }

    /** A file's extracted text, for the voice runtime's knowledge base. */
    @GET
    @Path("{id}/text")
    public FileTextView text(@PathParam("id") String id) {
        return files.text(caller.id(), Ids.existing(id, "File"));
    }
}
