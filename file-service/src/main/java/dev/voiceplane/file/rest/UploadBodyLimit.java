package dev.voiceplane.file.rest;

import dev.voiceplane.kit.http.RouteBodyLimit;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The body limit of a multipart upload to {@code POST /file} or {@code /file/upload}: as large as a file
 * ({@code voice.file.max-size}) plus {@value #ENVELOPE} bytes of multipart framing. Every other body keeps the kit's
 * {@code voice.http.max-body-size}. The kit checks it against the declared length, so an oversized upload is
 * answered 413 before a byte of it is written to disk.
 */
@Singleton
public class UploadBodyLimit implements RouteBodyLimit {

    static final long ENVELOPE = 64 * 1024;

    private final Limit upload;

    UploadBodyLimit(@ConfigProperty(name = "voice.file.max-size") MemorySize maxFileSize) {
        long maxFileBytes = maxFileSize.asLongValue();
        this.upload = new Limit(maxFileBytes + ENVELOPE, "file is too large (at most " + maxFileBytes + " bytes)");
    }

    @Override
    public Optional<Limit> limitFor(HttpServerRequest request) {
        return isUpload(request) ? Optional.of(upload) : Optional.empty();
    }

    private static boolean isUpload(HttpServerRequest request) {
        String path = request.path();
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        return request.method() == HttpMethod.POST
                && (path.equals("/file") || path.equals("/file/") || path.equals("/file/upload"))
                && type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
    }
}
