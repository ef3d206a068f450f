package dev.voiceplane.contracts.telephony;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The carrier call placed for a dial (docs/call-contracts.md §3): {@code phoneCallProviderId} is Twilio's CallSid or
 * Vonage's uuid, {@code phoneCallProviderDetails} what was sent to the carrier (as calls show it), never a secret.
 */
@RegisterForReflection
public record DialAnswer(String callId, String phoneCallProvider, String phoneCallProviderId,
        JsonNode phoneCallProviderDetails) {
}
