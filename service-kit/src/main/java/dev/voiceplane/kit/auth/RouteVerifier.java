package dev.voiceplane.kit.auth;

import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.Optional;

/**
 * Authenticates the requests of routes declared {@link VerifiedBy} this verifier (a CDI bean). It gets the request
 * and the exact bytes of its body, and accepts (for an organisation when it can tell which) or refuses. A verifier
 * that throws refuses: a failure never opens a route. One instance serves every request of its routes (the kit looks
 * the bean up once): make it {@code @ApplicationScoped} or {@code @Singleton}, with no per-request state.
 */
public interface RouteVerifier {

    Verdict verify(ContainerRequestContext request, byte[] body);

    /** The outcome of a verification. */
    record Verdict(boolean accepted, Optional<String> orgId, int status, String message) {

        /** Verified; the request acts for no particular organisation yet (the resource resolves it). */
        public static Verdict accept() {
            return new Verdict(true, Optional.empty(), 200, null);
        }

        /** Verified, for this organisation: {@link CallerOrganisation} is set as for an API key. */
        public static Verdict acceptFor(String orgId) {
            return new Verdict(true, Optional.of(orgId), 200, null);
        }

        /** Refused with a 4xx in the error shape; the message must say nothing secret. */
        public static Verdict refuse(int status, String message) {
            if (status < 400 || status > 499) {
                throw new IllegalArgumentException("a refusal is a 4xx, not " + status);
            }
            return new Verdict(false, Optional.empty(), status, message);
        }
    }
}
