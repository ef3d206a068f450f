package dev.voiceplane.contracts.credential;

import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.kit.client.InternalHeaders;
import dev.voiceplane.kit.client.PeerResponses;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * credential-service's internal routes ({@code InternalCredentialResource} answers with these records). Call it
 * through a {@link dev.voiceplane.kit.client.Peer}; {@link CredentialKeys} reads an organisation's provider key.
 */
@RegisterRestClient(configKey = CredentialServiceApi.PEER)
@RegisterClientHeaders(InternalHeaders.class)
@RegisterProvider(PeerResponses.class)
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
