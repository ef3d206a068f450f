package dev.voiceplane.file.recording;

import dev.voiceplane.file.api.FileView;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.error.RequestBodies;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.ResponseStatus;

/**
 * {@code /internal/file/recording}: the voice runtime streams a call's recording in as the call goes (service token +
 * {@code X-Voice-Org-Id}, never routed by the Ingress; docs/files.md, "Recordings"). Scoped to that organisation: an
 * upload of another organisation is a 404, like an unknown one.
 */
@Path("/internal/file/recording")
@Produces(MediaType.APPLICATION_JSON)
public class InternalRecordingResource {

    static final String RESOURCE = RecordingUploads.RESOURCE;

    private final RecordingUploads uploads;
    private final CallerOrganisation caller;

    public InternalRecordingResource(RecordingUploads uploads, CallerOrganisation caller) {
        this.uploads = uploads;
        this.caller = caller;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @ResponseStatus(201)
    public RecordingUploadView start(@NotNull(message = RequestBodies.REQUIRED) @Valid RecordingStart body) {
        return uploads.start(caller.id(), body);
    }

    /** Part {@code seq} (0, 1, …) of the audio: 16-bit little-endian PCM, the channels interleaved. */
    @PUT
    @Path("{id}/part/{seq}")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    public RecordingUploadView part(@PathParam("id") String id, @PathParam("seq") String seq, byte[] audio) {
        return uploads.append(caller.id(), Ids.existing(id, RESOURCE), sequence(seq), audio);
    }

    @POST
    @Path("{id}/complete")
    public FileView complete(@PathParam("id") String id) {
        return uploads.complete(caller.id(), Ids.existing(id, RESOURCE));
    }

    @DELETE
    @Path("{id}")
    public RecordingUploadView abandon(@PathParam("id") String id) {
        return uploads.abandon(caller.id(), Ids.existing(id, RESOURCE));
    }

    private static int sequence(String seq) {
        if (seq == null || !seq.matches("[0-9]{1,9}")) {
            throw ApiException.invalid("part must be a number from 0 (the parts' order), not " + seq);
        }
        return Integer.parseInt(seq);
    }
}
