package dev.voiceplane.kit.error;

import java.util.List;

/** A failure the client can act on; mapped once to {@link ApiError} with its status code. */
public class ApiException extends RuntimeException {

    private final int status;
    private final List<String> messages;
    private final boolean listMessage;

    protected ApiException(int status, List<String> messages, boolean listMessage) {
        super(String.join("; ", messages), null, false, false);
        this.status = status;
        this.messages = List.copyOf(messages);
        this.listMessage = listMessage;
    }

    /** Any other 4xx with one message, such as the HTTP layer's 414 and 431. */
    public static ApiException of(int status, String message) {
        return new ApiException(status, List.of(message), false);
    }

    /** 400 with one message per problem, as validation failures are reported. */
    public static ApiException invalid(List<String> problems) {
        return new ApiException(400, problems, true);
    }

    public static ApiException invalid(String problem) {
        return invalid(List.of(problem));
    }

    /** 404 for an unknown id, or an id that belongs to another organisation. */
    public static ApiException notFound(String resource) {
        return new ApiException(404, List.of(resource + " not found"), false);
    }

    public static ApiException conflict(String message) {
        return new ApiException(409, List.of(message), false);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(401, List.of(message), false);
    }

    /** 413: a request body over the size limit (produced by the kit's {@code http.BodyLimit} only). */
    public static ApiException tooLarge(String message) {
        return new ApiException(413, List.of(message), false);
    }

    /** 408: the client stopped sending its request body; nothing was read, so nothing was written. */
    public static ApiException timedOut(String message) {
        return new ApiException(408, List.of(message), false);
    }

    /** 415: a body in a media type the endpoint does not take, or a Content-Type that is not a media type. */
    public static ApiException unsupportedMediaType(String message) {
        return new ApiException(415, List.of(message), false);
    }

    /** 503: a service this request depends on cannot be reached; nothing was written. */
    public static ApiException unavailable(String message) {
        return new ApiException(503, List.of(message), false);
    }

    public int status() {
        return status;
    }

    public List<String> messages() {
        return messages;
    }

    public ApiError toError() {
        return listMessage ? ApiError.of(status, messages) : ApiError.of(status, messages.getFirst());
    }
}
