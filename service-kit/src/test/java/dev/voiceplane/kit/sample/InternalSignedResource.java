package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.auth.VerifiedBy;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** An internal resource wrongly declared verified: the declaration must not open it. */
@Path("/internal/hook")
@VerifiedBy(TestSignature.class)
@Produces(MediaType.APPLICATION_JSON)
public class InternalSignedResource {

    @POST
    @Consumes(MediaType.WILDCARD)
    public Map<String, String> post(byte[] body) {
        return Map.of("reached", "yes");
    }
}
