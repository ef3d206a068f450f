package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.json.JsonBodyScreen;
import dev.voiceplane.kit.json.UnknownProperties;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;

/**
 * Reads every JSON request body (already received in full and within the size limit by
 * {@link RequestBodyReception}): screened by {@link JsonBodyScreen}, and rejected after Jackson has read it when it
 * had unknown properties, so that one 400 names them all.
 */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
public class RequestBodyReader implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (isJson(context.getMediaType())) {
            byte[] body = context.getInputStream().readAllBytes();
            List<String> problems = JsonBodyScreen.problems(body);
            if (!problems.isEmpty()) {
                throw ApiException.invalid(problems);
            }
            context.setInputStream(new ByteArrayInputStream(body));
        }
        UnknownProperties.begin();
        Object body;
        try {
            body = context.proceed();
        } finally {
            List<String> unknown = UnknownProperties.end();
            if (!unknown.isEmpty()) {
                throw ApiException.invalid(unknown);
            }
        }
        return body;
    }

    /**
     * JSON, or a wildcard that JAX-RS resolves to the endpoint's JSON reader ({@code *}{@code /*},
     * {@code application/*}): either way the body is read as JSON, so it is screened as JSON.
     */
    private static boolean isJson(MediaType type) {
        if (type == null || type.isWildcardType() || type.isWildcardSubtype()) {
            return true;
        }
        // Media types are case-insensitive: APPLICATION/JSON is read as JSON too (found by call-service's fuzz suite).
        String subtype = type.getSubtype().toLowerCase(java.util.Locale.ROOT);
        return subtype.equals("json") || subtype.endsWith("+json");
    }
}
