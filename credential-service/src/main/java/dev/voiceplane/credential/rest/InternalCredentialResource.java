package dev.voiceplane.credential.rest;

import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.contracts.credential.CredentialView;
import dev.voiceplane.credential.service.CredentialService;
import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.persistence.Ids;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import dev.voiceplane.kit.list.ListParams;
import dev.voiceplane.kit.list.ListQuery;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /**
     * The organisation's credentials, newest first, with the list parameters plus {@code provider}: call-service
     * finds the organisation's own LLM key this way (its newest {@code openai} credential, then its secret).
     */
    @GET
    public List<CredentialView> list(@Context UriInfo uri) {
        return credentials.list(caller.id(), ListParams.parse(uri.getQueryParameters(), Set.of("provider")),
                Map.of("provider", new ListQuery.EqualityColumn("provider", value -> value)));
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
