package dev.voiceplane.kit.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The paths the first authentication check passes on to a verifier: those of routes declared verified, only. */
class VerifiedRoutesTest {

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
    void onlyTheDeclaredRoutesMatch() {
        VerifiedRoutes routes = VerifiedRoutes.of(List.of(Hooks.class, AllSigned.class, Object.class));
        assertTrue(routes.matches("/carrier/status"));
        assertTrue(routes.matches("/carrier/status/"));
        assertTrue(routes.matches("/carrier/CA1/events"));
        assertTrue(routes.matches("/signed"));
        assertTrue(routes.matches("/signed/42"));
        assertFalse(routes.matches("/carrier/keyed"));
        assertFalse(routes.matches("/carrier/a/b/events"));
        assertFalse(routes.matches("/carrier/status/x"));
        assertFalse(routes.matches("/signed/425"));
        assertFalse(routes.matches("/x/carrier/status"));
        assertFalse(routes.matches("/carrier"));
    }
}
