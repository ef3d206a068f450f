package dev.voiceplane.kit.auth;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Declares that a public route is authenticated by a {@link RouteVerifier} instead of an API key (a carrier's
 * webhook carries the carrier's signature, not one of our keys). On a resource class it covers every method of
 * the class; on a method, that method. An API key never opens such a route, and the declaration never opens an
 * {@code /internal/} route: those always take the service token. A route without the declaration takes an API key.
 * Verified routes take their body as {@code byte[]} (or {@code String}) and parse it after verification, since the
 * verifier reads the exact bytes that were signed.
 */
@Documented
@Retention(RUNTIME)
@Target({TYPE, METHOD})
public @interface VerifiedBy {

    /** The CDI bean that verifies each request of the route. */
    Class<? extends RouteVerifier> value();
}
