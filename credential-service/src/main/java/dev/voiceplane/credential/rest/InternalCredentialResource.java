package dev.voiceplane.credential.rest;

import dev.voiceplane.credential.api.CredentialSecret;
import dev.voiceplane.credential.api.CredentialView;
import dev.voiceplane.credential.service.CredentialService;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/**
 * {@code /internal/credential}: for other services (service token + organisation header, never routed by the
 * Ingress). The metadata answers "does this credential exist, with which provider"; the secret is a separate
 * call so that only a service about to call the provider asks for it.
 */
@Path("/internal/credential")
@Produces(MediaType.APPLICATION_JSON)
public class InternalCredentialResource {

    private final CredentialService credentials;
    private final CallerOrganisation caller;

    public InternalCredentialResource(CredentialService credentials, CallerOrganisation caller) {
        this.credentials = credentials;
        this.caller = caller;
    }

    @GET
    @Path("{id}")
    public CredentialView get(@PathParam("id") String id) {
        return credentials.get(caller.id(), Ids.existing(id, "Credential"));
    }

    @GET
    @Path("{id}/secret")
    public CredentialSecret secret(@PathParam("id") String id) {
        return credentials.secret(caller.id(), Ids.existing(id, "Credential"));
    }
}
