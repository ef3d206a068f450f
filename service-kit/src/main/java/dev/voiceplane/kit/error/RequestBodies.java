package dev.voiceplane.kit.error;

/** Conventions for request bodies shared by every resource. */
public final class RequestBodies {

    /** Message of a missing body: {@code @NotNull(message = RequestBodies.REQUIRED) @Valid Body body}. */
    public static final String REQUIRED = "request body must be a JSON object";

    private RequestBodies() {
    }
}
