package dev.voiceplane.file.rest;

import dev.voiceplane.kit.error.ApiError;
import dev.voiceplane.kit.http.BodyLimit;
import dev.voiceplane.kit.http.ErrorMappers;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * A body declared {@code multipart/form-data} that is not (no boundary in it, cut short) fails in Quarkus REST's
 * form parser with a bare {@link IOException} before any resource runs: the client's mistake, so a 400 in the
 * error shape. Any other IOException is left to the kit's mapping.
 */
public class MultipartErrors {

    private final ErrorMappers kit;

    public MultipartErrors(BodyLimit bodyLimit) {
        this.kit = new ErrorMappers(bodyLimit);
    }

    @ServerExceptionMapper
    public Response unreadableForm(IOException e) {
        if (fromFormParser(e)) {
            return ApiError.of(400, "request body is not valid multipart/form-data: " + e.getMessage()).toResponse();
        }
        return kit.unexpected(e);
    }

    private static boolean fromFormParser(IOException e) {
        StackTraceElement[] stack = e.getStackTrace();
        for (int i = 0; i < Math.min(stack.length, 3); i++) {
            if (stack[i].getClassName().startsWith("org.jboss.resteasy.reactive.server.core.multipart.")) {
                return true;
            }
        }
        return false;
    }
}
