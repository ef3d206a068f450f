package dev.voiceplane.kit.sample;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The sample's internal route, a resource of its own as in the services. */
@Path("/internal/note")
@Produces(MediaType.APPLICATION_JSON)
public class InternalNoteResource {

    private final NoteResource notes;

    public InternalNoteResource(NoteResource notes) {
        this.notes = notes;
    }

    @GET
    @Path("{id}")
    public NoteResource.NoteView get(@PathParam("id") String id) {
        return notes.find(id);
    }
}
