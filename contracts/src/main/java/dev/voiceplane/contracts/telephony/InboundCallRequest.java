package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/call/inbound} (docs/call-contracts.md §1): a carrier is ringing one of the organisation's
 * numbers. Idempotent on {@code (phoneCallProvider, phoneCallProviderId)}.
 */
@RegisterForReflection
public record InboundCallRequest(
        @NotBlank @Size(max = 20) String phoneCallProvider,
        @NotBlank @Size(max = 200) String phoneCallProviderId,
        @Size(max = 10) String phoneCallTransport,
        @Valid Customer customer,
        @NotNull PhoneNumberConfiguration phoneNumber) {
}
