package dev.voiceplane.kit.json;

import dev.voiceplane.kit.error.ApiException;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Guards every JSON request body: at most {@code voice.http.max-body-size} bytes however it was sent (chunked
 * bodies declare no length), screened by {@link JsonBodyScreen}, and rejected after Jackson has read it when it
 * had unknown properties, so that one 400 names them all.
 */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
public class RequestBodyProblems implements ReaderInterceptor {

    private final long maxBytes;

    public RequestBodyProblems(@ConfigProperty(name = "voice.http.max-body-size", defaultValue = "1M") MemorySize max) {
        this.maxBytes = max.asLongValue();
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (isJson(context.getMediaType())) {
            byte[] body = readAtMost(context.getInputStream());
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

    private byte[] readAtMost(InputStream in) throws IOException {
        byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        if (body.length > maxBytes) {
            throw ApiException.tooLarge("request body is too large (at most " + maxBytes + " bytes)");
        }
        return body;
    }

    private static boolean isJson(MediaType type) {
        return type != null && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
    }
}
