package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Answer of an internal lookup ({@code {"found"}}); the kit's shared record replaces it when it lands. */
@RegisterForReflection
public record IdLookupResult(List<String> found) {
}
