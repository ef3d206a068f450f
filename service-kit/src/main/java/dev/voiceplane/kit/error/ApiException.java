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

    /** 413: a body over the size limit that the HTTP layer could not see coming (no Content-Length). */
    public static ApiException tooLarge(String message) {
        return new ApiException(413, List.of(message), false);
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
