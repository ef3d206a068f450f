package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.OrgScopedId;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class NoteResource {

    public record Detail(@Size(max = 10) String label, @Min(1) Integer weight) {
    }

    public record NoteBody(@NotNull @Size(max = 40) String text, @Min(0) @Max(5) Integer priority, java.math.BigDecimal weight,
            @Valid Detail detail, List<@Valid Detail> details) {
    }

    public record NoteView(String id, String orgId, Instant createdAt, Instant updatedAt, String text,
            Integer priority) {
        static NoteView of(Note note) {
            return new NoteView(note.id.toString(), note.orgId, note.createdAt, note.updatedAt, note.text,
                    note.priority);
        }
    }

    private final NoteRepository notes;
    private final CallerOrganisation caller;

    public NoteResource(NoteRepository notes, CallerOrganisation caller) {
        this.notes = notes;
        this.caller = caller;
    }

    @POST
    @Path("note")
    @Transactional
    public Response create(@NotNull @Valid NoteBody body) {
        Note note = new Note();
        note.stampCreated(caller.id(), null);
        note.text = body.text();
        note.priority = body.priority();
        note.weight = body.weight();
        notes.persist(note);
        return Response.status(201).entity(NoteView.of(note)).build();
    }

    @GET
    @Path("note")
    public List<NoteView> list(UriInfo uri) {
        return ListQuery.list(notes, caller.id(), ListParams.parse(uri.getQueryParameters(), Set.of("text")),
                        Map.of("text", new ListQuery.EqualityColumn("text", value -> value)))
                .stream().map(NoteView::of).toList();
    }

    @GET
    @Path("note/{id}")
    public NoteView get(@PathParam("id") String id) {
        return find(id);
    }

    @GET
    @Path("note-failure")
    public NoteView failure() {
        throw new IllegalStateException("secret internals: jdbc:postgresql://db/password=hunter2");
    }

    NoteView find(String id) {
        return Ids.parse(id)
                .flatMap(uuid -> notes.findByIdOptional(new OrgScopedId(caller.id(), uuid)))
                .map(NoteView::of)
                .orElseThrow(() -> ApiException.notFound("Note"));
    }
}
