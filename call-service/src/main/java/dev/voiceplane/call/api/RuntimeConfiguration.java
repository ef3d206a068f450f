package dev.voiceplane.call.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * {@code GET /internal/call/{id}/runtime}: what the voice runtime runs a call with. {@code assistant} is the
 * frozen assistant with the call's overrides applied (for a squad: {@code squad.members[].assistant} likewise,
 * the first member starts); {@code credentialProviders} are the providers whose credentials it reads from
 * credential-service itself, by reference, at the moment of use.
 */
@RegisterForReflection
public record RuntimeConfiguration(
        CallView call,
        JsonNode assistant,
        JsonNode squad,
        JsonNode variableValues,
        PhoneNumberConfiguration phoneNumber,
        List<String> credentialProviders) {
}
