package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.client.PeerFailure;
import dev.voiceplane.kit.client.PeerService;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.kit.error.ApiException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** A public route that asks a peer service, as a service's use case would (thin here: the kit is what is tested). */
@Path("/peer-sample")
@Produces(MediaType.APPLICATION_JSON)
public class PeerSampleResource {

    public static final String PEER = "peer-sample";

    private final PeerSampleApi api;
    private final PeerService peer;
    private final CallerOrganisation caller;

    public PeerSampleResource(@RestClient PeerSampleApi api, PeerServices peers, CallerOrganisation caller) {
        this.api = api;
        this.peer = peers.named(PEER);
        this.caller = caller;
    }

    @GET
    @Path("{id}")
    public Map<String, Object> get(@PathParam("id") String id) {
        try {
            return peer.find(() -> api.thing(caller.id(), id), "so the thing cannot be read")
                    .orElseThrow(() -> ApiException.notFound("Thing"));
        } catch (PeerFailure.Rejected rejected) {
            throw ApiException.invalid("the peer refused the request with " + rejected.status());
        }
    }
}
