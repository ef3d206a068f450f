package dev.voiceplane.file.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Answer of a lookup: the asked-for ids that are files of the organisation, in the order asked, each once. */
@RegisterForReflection
public record IdLookupResult(List<String> found) {
}
