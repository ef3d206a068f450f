package dev.voiceplane.contracts.credential;

import dev.voiceplane.kit.auth.Authentication;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * credential-service's internal routes ({@code InternalCredentialResource} answers with these records). Call it
 * through a {@link dev.voiceplane.kit.client.Peer}; {@link CredentialKeys} reads an organisation's provider key.
 *
 * <p>Not a REST client by itself: each caller registers its own, an interface extending this one
 * (docs/architecture.md, "Service-to-service calls"), so that a service registers only the peers it calls.
 */
@Path("/internal/credential")
@Produces(MediaType.APPLICATION_JSON)
public interface CredentialServiceApi {

    /** The peer's name: its REST client's configuration key and its circuit breaker. */
    String PEER = "credential-service";

    /** The organisation's credentials of one provider, newest first. */
    @GET
    List<CredentialView> byProvider(@HeaderParam(Authentication.ORG_HEADER) String orgId,
            @QueryParam("provider") String provider, @QueryParam("limit") int limit);

    /** One credential, without its secret. */
    @GET
    @Path("{id}")
    CredentialView get(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);

    /** The credential's secret (it carries the provider too, so one call checks and reads). */
    @GET
    @Path("{id}/secret")
    CredentialSecret secret(@HeaderParam(Authentication.ORG_HEADER) String orgId, @PathParam("id") String id);
}
