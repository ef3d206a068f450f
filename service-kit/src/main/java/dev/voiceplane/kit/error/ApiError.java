package dev.voiceplane.kit.error;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The one error body of the API: {@code {"message": ..., "error": "<reason phrase>", "statusCode": n}}.
 * {@code message} is a list of strings for validation failures and a single string otherwise. Registered for
 * reflection because it is also written outside JAX-RS (unknown routes, oversized bodies), which native mode
 * would not see.
 */
@RegisterForReflection
public record ApiError(Object message, String error, int statusCode) {

    public static ApiError of(int status, String message) {
        return new ApiError(message, reasonPhrase(status), status);
    }

    public static ApiError of(int status, List<String> messages) {
        return new ApiError(List.copyOf(messages), reasonPhrase(status), status);
    }

    public Response toResponse() {
        return Response.status(statusCode).type("application/json").entity(this).build();
    }

    public static String reasonPhrase(int status) {
        return switch (status) {
            case 413 -> "Payload Too Large";
            case 414 -> "URI Too Long";
            case 431 -> "Request Header Fields Too Large";
            case 422 -> "Unprocessable Entity";
            case 429 -> "Too Many Requests";
            case 426 -> "Upgrade Required";
            default -> {
                Response.Status known = Response.Status.fromStatusCode(status);
                yield known != null ? known.getReasonPhrase() : "Error";
            }
        };
    }
}
