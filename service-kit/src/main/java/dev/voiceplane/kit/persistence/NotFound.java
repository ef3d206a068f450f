package dev.voiceplane.kit.persistence;

/**
 * A resource the caller's organisation does not have (or that does not exist: the two are one answer, so no
 * organisation learns of another's ids). Thrown by repositories, which know nothing of HTTP; the kit's error mapping
 * answers it once, for every service, as the 404 {@code "<resource> not found"}.
 */
public final class NotFound extends RuntimeException {

    private final String resource;

    public NotFound(String resource) {
        super(resource + " not found", null, false, false);
        this.resource = resource;
    }

    /** The resource's name as the API writes it in the message ({@code Assistant}, {@code Call}, ...). */
    public String resource() {
        return resource;
    }
}
