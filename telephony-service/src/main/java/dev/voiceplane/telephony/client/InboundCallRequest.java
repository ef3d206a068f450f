package dev.voiceplane.telephony.client;

import dev.voiceplane.telephony.api.PhoneNumberConfiguration;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * {@code POST /internal/call/inbound} (docs/call-contracts.md §1): a carrier is ringing one of the organisation's
 * numbers. Idempotent on {@code (phoneCallProvider, phoneCallProviderId)}.
 */
@RegisterForReflection
public record InboundCallRequest(
        String phoneCallProvider,
        String phoneCallProviderId,
        String phoneCallTransport,
        Customer customer,
        PhoneNumberConfiguration phoneNumber) {
}
