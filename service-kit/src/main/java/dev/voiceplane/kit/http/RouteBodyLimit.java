package dev.voiceplane.kit.http;

import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;

/**
 * A different body limit for some requests of a service (file-service's multipart uploads), declared by a CDI bean
 * of that service. {@link BodyLimit} asks it before the declared {@code Content-Length} is checked; every other
 * request keeps {@code voice.http.max-body-size}. Multipart bodies are not received by the kit (the form parser
 * streams them to disk), so the declared length is what a service's limit is checked against.
 */
public interface RouteBodyLimit {

    /** The limit for this request and the message of its 413, or empty for the service-wide limit. */
    Optional<Limit> limitFor(HttpServerRequest request);

    record Limit(long maxBytes, String message) {
    }
}
