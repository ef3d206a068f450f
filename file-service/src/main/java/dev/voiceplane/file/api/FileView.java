package dev.voiceplane.file.api;

import dev.voiceplane.file.domain.StoredFile;
import java.time.Instant;
import java.util.Map;

/**
 * A file as clients see it (docs/files.md, "API"). {@code purpose} and {@code metadata} are never set by this
 * service and so are omitted, as every unset field is.
 */
public record FileView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        String object,
        String status,
        String name,
        String originalName,
        Long bytes,
        String purpose,
        String mimetype,
        String key,
        String path,
        String bucket,
        String url,
        Map<String, Object> metadata) {

    /** @param publicUrl the base the {@code url} starts with (may be empty: then the url is a path). */
    public static FileView of(StoredFile file, String publicUrl) {
        String id = file.id.toString();
        return new FileView(id, file.orgId, file.createdAt, file.updatedAt, "file", file.status, file.name,
                file.originalName, file.bytes, null, file.mimetype, file.storageKey,
                file.bucket + "/" + file.storageKey, file.bucket, publicUrl + "/file/" + id + "/content", null);
    }
}
