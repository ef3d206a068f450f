package dev.voiceplane.contracts.file;

import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.lookup.IdLookup;
import dev.voiceplane.kit.lookup.IdLookupResult;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * file-service's internal routes: the lookup ({@code InternalFileResource}; the contract is in
 * docs/assistants-and-squads.md) and the knowledge-base search ({@code InternalSearchResource}, docs/files.md).
 * Call it through a {@link dev.voiceplane.kit.client.Peer} (assistant-service's {@code FileCatalogue}, the voice
 * runtime's {@code KnowledgeSearch}).
 *
 * <p>Not a REST client by itself: each caller registers its own, an interface extending this one
 * (docs/architecture.md, "Service-to-service calls"), so that a service registers only the peers it calls.
 */
@Path("/internal/file")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface FileServiceApi {

    /** The peer's name: its REST client's configuration key. */
    String PEER = "file-service";

    /** Which of {@code ids} are files of the organisation. */
    @POST
    @Path("lookup")
    IdLookupResult lookup(@HeaderParam(Authentication.ORG_HEADER) String orgId, IdLookup request);

    /** Starts a recording upload (the voice runtime; docs/files.md, "Recordings"). */
    @POST
    @Path("recording")
    RecordingUpload startRecording(@HeaderParam(Authentication.ORG_HEADER) String orgId, RecordingStart request);

    /** Part {@code seq} of a recording's audio: 16-bit little-endian PCM, channels interleaved. */
    @jakarta.ws.rs.PUT
    @Path("recording/{id}/part/{seq}")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    RecordingUpload recordingPart(@HeaderParam(Authentication.ORG_HEADER) String orgId,
            @jakarta.ws.rs.PathParam("id") String id, @jakarta.ws.rs.PathParam("seq") int seq, byte[] audio);

    /** Completes a recording: the WAV file it became ({@code id}, {@code url}, ...). */
    @POST
    @Path("recording/{id}/complete")
    com.fasterxml.jackson.databind.JsonNode completeRecording(@HeaderParam(Authentication.ORG_HEADER) String orgId,
            @jakarta.ws.rs.PathParam("id") String id);

    /** Discards a recording that will not be completed. */
    @jakarta.ws.rs.DELETE
    @Path("recording/{id}")
    RecordingUpload abandonRecording(@HeaderParam(Authentication.ORG_HEADER) String orgId,
            @jakarta.ws.rs.PathParam("id") String id);

    /** The start of a recording upload: its file name and the parts' format. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    record RecordingStart(String name, int channels, int sampleRate) {
    }

    /** A recording upload in progress. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    record RecordingUpload(String id, int parts, long bytes) {
    }
    /** The best passages of the organisation's files for a query (the voice runtime, once per caller turn). */
    @POST
    @Path("search")
    Passages search(@HeaderParam(Authentication.ORG_HEADER) String orgId, PassageSearch request);
}
