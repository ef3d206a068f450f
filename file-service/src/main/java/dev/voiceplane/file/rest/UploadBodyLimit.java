package dev.voiceplane.file.rest;

import dev.voiceplane.kit.error.ApiError;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The kit's declared-length check ({@code RequestBodyLimit}, excluded in application.properties) with one more
 * limit: a multipart upload to {@code POST /file} or {@code /file/upload} may be as large as a file
 * ({@code voice.file.max-size}) plus {@value #ENVELOPE} bytes of multipart framing; every other body keeps the kit's
 * {@code voice.http.max-body-size}. Refusing on the declared length means an oversized upload is answered 413 before
 * a byte of it is written to disk. Belongs in the kit (a per-route limit) once the kit's owner takes it.
 */
@Singleton
public class UploadBodyLimit {

    static final long ENVELOPE = 64 * 1024;

    private final long maxBodyBytes;
    private final long maxFileBytes;

    UploadBodyLimit(@ConfigProperty(name = "voice.http.max-body-size", defaultValue = "1M") MemorySize maxBodySize,
            @ConfigProperty(name = "voice.file.max-size") MemorySize maxFileSize) {
        this.maxBodyBytes = maxBodySize.asLongValue();
        this.maxFileBytes = maxFileSize.asLongValue();
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, 900);
    }

    private void check(RoutingContext ctx) {
        String declared = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared != null) {
            boolean upload = isUpload(ctx);
            long limit = upload ? maxFileBytes + ENVELOPE : maxBodyBytes;
            if (exceeds(declared, limit)) {
                ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
                ApiError error = ApiError.of(413, upload
                        ? "file is too large (at most " + maxFileBytes + " bytes)"
                        : "request body is too large (at most " + maxBodyBytes + " bytes)");
                ctx.response().setStatusCode(413).putHeader("Content-Type", "application/json").end(Json.encode(error));
                return;
            }
        }
        ctx.next();
    }

    private static boolean isUpload(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        String type = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        return ctx.request().method() == HttpMethod.POST
                && (path.equals("/file") || path.equals("/file/") || path.equals("/file/upload"))
                && type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data");
    }

    private static boolean exceeds(String declared, long limit) {
        try {
            return Long.parseLong(declared.strip()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
