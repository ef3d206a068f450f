package dev.voiceplane.file.rest;

import dev.voiceplane.file.api.FileUpdate;
import dev.voiceplane.file.api.FileView;
import dev.voiceplane.file.service.FileService;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.error.ApiException;
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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.jboss.resteasy.reactive.ResponseStatus;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/** {@code /file}: files of the caller's organisation. */
@Path("/file")
@Produces(MediaType.APPLICATION_JSON)
public class FileResource {

    static final String PART = "file";

    private final FileService files;
    private final CallerOrganisation caller;

    public FileResource(FileService files, CallerOrganisation caller) {
        this.files = files;
        this.caller = caller;
    }

    /** The documented upload path; newer clients post the same form to {@code POST /file}. */
    @POST
    @Path("upload")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @ResponseStatus(201)
    @APIResponseSchema(value = FileView.class, responseCode = "201", responseDescription = "Created")
    public FileView upload(@RestForm(FileUpload.ALL) List<FileUpload> parts) {
        FileUpload part = onlyFilePart(parts);
        return files.upload(caller.id(), part.uploadedFile(), part.fileName());
    }

    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @ResponseStatus(201)
    @APIResponseSchema(value = FileView.class, responseCode = "201", responseDescription = "Created")
    public FileView create(@RestForm(FileUpload.ALL) List<FileUpload> parts) {
        return upload(parts);
    }

    @GET
    public List<FileView> list(@Context UriInfo uri) {
        return files.list(caller.id(), ListParams.parse(uri.getQueryParameters()));
    }

    @GET
    @Path("{id}")
    public FileView get(@PathParam("id") String id) {
        return files.get(caller.id(), Ids.existing(id, "File"));
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public FileView update(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid FileUpdate body) {
        return files.update(caller.id(), Ids.existing(id, "File"), body);
    }

    @DELETE
    @Path("{id}")
    public FileView delete(@PathParam("id") String id) {
        return files.delete(caller.id(), Ids.existing(id, "File"));
    }

    /** The bytes, with the type detected at upload, streamed from the store (never whole in memory). */
    @GET
    @Path("{id}/content")
    @Produces(MediaType.WILDCARD)
    public Response content(@PathParam("id") String id) {
        FileService.Content content = files.content(caller.id(), Ids.existing(id, "File"));
        StreamingOutput body = target -> content.writer().writeTo(target);
        return Response.ok(body, content.mimetype())
                .header("Content-Length", content.bytes())
                .header("Content-Disposition", ContentDisposition.attachment(content.originalName()))
                .header("X-Content-Type-Options", "nosniff")
                .build();
    }

    /**
     * Exactly one file part, named {@value #PART}, with content: anything else is refused before a byte is looked at.
     */
    private static FileUpload onlyFilePart(List<FileUpload> parts) {
        List<FileUpload> files = parts == null ? List.of() : parts;
        List<String> others = files.stream().map(FileUpload::name).filter(name -> !PART.equals(name)).distinct().toList();
        if (!others.isEmpty()) {
            throw ApiException.invalid(others.stream().map(name -> "property " + name + " should not exist").toList());
        }
        if (files.isEmpty()) {
            throw ApiException.invalid("Invalid file: send the file as the multipart part named \"file\", with a file name");
        }
        if (files.size() > 1) {
            throw ApiException.invalid("Invalid file: send exactly one part named \"file\" (got " + files.size() + ")");
        }
        FileUpload file = files.getFirst();
        if (file.uploadedFile() == null) {
            // The form parser keeps no file for a part whose content is itself multipart (multipart/mixed) and that
            // has no file name: there are no bytes to store (issue 24: this was a NullPointerException, a 500).
            throw ApiException.invalid("Invalid file: the part named \"file\" holds no file content"
                    + (file.contentType() == null ? "" : " (it is " + file.contentType() + ")")
                    + "; send the file's bytes as that part, with a file name, not a nested multipart/mixed body");
        }
        return file;
    }
}
