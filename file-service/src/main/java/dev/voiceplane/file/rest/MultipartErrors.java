package dev.voiceplane.file.rest;

import dev.voiceplane.kit.error.ApiError;
import dev.voiceplane.kit.http.BodyLimit;
import dev.voiceplane.kit.http.ErrorMappers;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UnsupportedEncodingException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.core.multipart.MultipartParser;

/**
 * Bodies declared {@code multipart/form-data} that Quarkus REST's form parser fails on before any resource runs: the
 * client's mistake, so a 400 in the error shape that says what is wrong. Found by the fuzz suite and issue 24 (each
 * was a 500): no boundary in the body or a body cut short (a bare {@link IOException}), a raw line break inside a
 * part's header such as the file name ({@link MultipartParser.MalformedMessageException}), and a
 * {@code filename*=…''…} whose percent-escapes or charset cannot be decoded. The same exceptions from anywhere else
 * are left to the kit's mapping.
 */
public class MultipartErrors {

    static final String NOT_MULTIPART = "request body is not valid multipart/form-data: ";

    /** How deep in the stack the parser's frame is looked for (the JDK's URLDecoder sits above it). */
    private static final int FRAMES = 8;

    private final ErrorMappers kit;

    public MultipartErrors(BodyLimit bodyLimit) {
        this.kit = new ErrorMappers(bodyLimit);
    }

    @ServerExceptionMapper
    public Response unreadableForm(IOException e) {
        if (fromFormParser(e)) {
            return ApiError.of(400, NOT_MULTIPART + e.getMessage()).toResponse();
        }
        return kit.unexpected(e);
    }

    @ServerExceptionMapper
    public Response malformedPartHeader(MultipartParser.MalformedMessageException e) {
        return ApiError.of(400, NOT_MULTIPART + "a part's header is malformed (a header line, such as the one with the "
                + "file name, may not hold a raw line break or control character: percent-encode the name in "
                + "filename*=UTF-8''…)").toResponse();
    }

    /**
     * The parser decodes {@code filename*=charset''escapes} with URLDecoder: a malformed escape throws
     * {@link IllegalArgumentException}, an empty or unknown charset a RuntimeException around
     * {@link java.io.UnsupportedEncodingException} (found by the fuzz suite).
     */
    @ServerExceptionMapper
    public Response malformedFileName(RuntimeException e) {
        if (fromFormParser(e)) {
            String why = e.getCause() instanceof UnsupportedEncodingException charset ? charset.getMessage() : e.getMessage();
            return ApiError.of(400, NOT_MULTIPART + "the file name (filename*) cannot be decoded as charset''"
                    + "percent-encoded text: " + why).toResponse();
        }
        return kit.unexpected(e);
    }

    private static boolean fromFormParser(Exception e) {
        StackTraceElement[] stack = e.getStackTrace();
        for (int i = 0; i < Math.min(stack.length, FRAMES); i++) {
            if (stack[i].getClassName().startsWith("org.jboss.resteasy.reactive.server.core.multipart.")) {
                return true;
            }
        }
        return false;
    }
}
