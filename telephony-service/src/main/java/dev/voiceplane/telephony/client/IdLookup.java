package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Request of an internal lookup ({@code {"ids"}}); the kit's shared record replaces it when it lands. */
@RegisterForReflection
public record IdLookup(List<String> ids) {
}
