package dev.voiceplane.assistant.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Answer of file-service's lookup: the asked-for ids that are files of the organisation. */
@RegisterForReflection
public record FileLookupResult(List<String> found) {
}
