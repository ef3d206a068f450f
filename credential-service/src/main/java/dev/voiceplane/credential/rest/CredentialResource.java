package dev.voiceplane.credential.rest;

import dev.voiceplane.credential.api.CredentialRequest;
import dev.voiceplane.contracts.credential.CredentialView;
import dev.voiceplane.credential.service.CredentialService;
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
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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

/** {@code /credential}: provider credentials of the caller's organisation. */
@Path("/credential")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CredentialResource {

    private final CredentialService credentials;
    private final CallerOrganisation caller;

    public CredentialResource(CredentialService credentials, CallerOrganisation caller) {
        this.credentials = credentials;
        this.caller = caller;
    }

    @POST
    @ResponseStatus(201)
    @APIResponseSchema(value = CredentialView.class, responseCode = "201", responseDescription = "Created")
    public CredentialView create(@NotNull(message = RequestBodies.REQUIRED) @Valid CredentialRequest body) {
        return credentials.create(caller.id(), body);
    }

    @PUT
    @Path("{id}")
    public CredentialView put(@PathParam("id") String id,
            @NotNull(message = RequestBodies.REQUIRED) @Valid CredentialRequest body) {
        UUID uuid = Ids.parse(id).orElseThrow(() -> ApiException.invalid("id must be a UUID"));
        return credentials.put(caller.id(), uuid, body);
    }

    @GET
    public List<CredentialView> list(@Context UriInfo uri) {
        return credentials.list(caller.id(), ListParams.parse(uri.getQueryParameters()));
    }

    @GET
    @Path("{id}")
    public CredentialView get(@PathParam("id") String id) {
        return credentials.get(caller.id(), Ids.existing(id, "Credential"));
    }

    @DELETE
    @Path("{id}")
    public CredentialView delete(@PathParam("id") String id) {
        return credentials.delete(caller.id(), Ids.existing(id, "Credential"));
    }
}
