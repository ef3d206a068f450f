package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.auth.CallerOrganisation;
import dev.voiceplane.kit.auth.VerifiedBy;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A webhook route authenticated by {@link TestSignature} instead of an API key, as carrier routes are. */
@Path("/hook")
@Produces(MediaType.APPLICATION_JSON)
public class SignedHookResource {

    private final CallerOrganisation caller;

    public SignedHookResource(CallerOrganisation caller) {
        this.caller = caller;
    }

    /** Echoes the body it was given (after verification) and the organisation the verifier named. */
    @POST
    @Path("signed")
    @VerifiedBy(TestSignature.class)
    @Consumes(MediaType.WILDCARD)
    public Map<String, String> signed(byte[] body) {
        String org;
        try {
            org = caller.id();
        } catch (IllegalStateException none) {
            org = "-";
        }
        return Map.of("body", new String(body, StandardCharsets.UTF_8), "org", org);
    }

    /** The same resource without the declaration: an API key route. */
    @POST
    @Path("unsigned")
    @Consumes(MediaType.WILDCARD)
    public Map<String, String> unsigned(byte[] body) {
        return Map.of("body", new String(body, StandardCharsets.UTF_8), "org", caller.id());
    }
}
