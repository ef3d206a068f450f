package dev.voiceplane.kit.json;

import dev.voiceplane.kit.error.ApiException;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;
import java.util.List;

/** Rejects a request body that had unknown properties, after Jackson has read all of it. */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
public class RequestBodyProblems implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
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
}
