package dev.voiceplane.assistant.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Request of file-service's {@code POST /internal/file/lookup}: at most {@link FileCatalogue#BATCH} file ids. */
@RegisterForReflection
public record FileLookup(List<String> ids) {
}
