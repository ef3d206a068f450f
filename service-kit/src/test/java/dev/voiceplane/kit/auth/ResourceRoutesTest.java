package dev.voiceplane.kit.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the first authentication check sees a path: a verified route, a key route, or not a JAX-RS route. */
class ResourceRoutesTest {

    @Path("/")
    static class Hooks {
        @POST
        @Path("/carrier/status")
        @VerifiedBy(RouteVerifier.class)
        public void status() {
        }

        @POST
        @Path("carrier/{callId}/events")
        @VerifiedBy(RouteVerifier.class)
        public void events() {
        }

        @POST
        @Path("carrier/keyed")
        public void keyed() {
        }
    }

    @Path("signed")
    @VerifiedBy(RouteVerifier.class)
    static class AllSigned {
        @GET
        public void all() {
        }

        @GET
        @Path("{id: [0-9]{2}}")
        public void one() {
        }
    }

    @Test
    void verifiedKeyedAndOtherPaths() {
        ResourceRoutes routes = ResourceRoutes.of(List.of(Hooks.class, AllSigned.class, Object.class));
        for (String verified : List.of("/carrier/status", "/carrier/status/", "/carrier/CA1/events", "/signed",
                "/signed/42")) {
            assertEquals(ResourceRoutes.Kind.VERIFIED, routes.kind(verified), verified);
        }
        assertEquals(ResourceRoutes.Kind.KEY, routes.kind("/carrier/keyed"));
        assertEquals(ResourceRoutes.Kind.KEY, routes.kind("/carrier/keyed/"));
        for (String other : List.of("/carrier/a/b/events", "/carrier/status/x", "/signed/425", "/x/carrier/status",
                "/carrier", "/q/health", "/media/stream")) {
            assertEquals(ResourceRoutes.Kind.NONE, routes.kind(other), other);
        }
    }
}
