package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/phone-number/hangup-inline} (docs/call-contracts.md §4): end a call dialled from an inline
 * number. The call is found by {@code phoneCallProviderId} among the organisation's inline dials and hung up with
 * what telephony-service kept for it; {@code phoneNumber} (the inline body the call was dialled with) is accepted
 * and not needed.
 */
@RegisterForReflection
public record InlineHangupRequest(
        @NotBlank @Size(max = 100) String phoneCallProviderId,
        @Valid InlinePhoneNumber phoneNumber) {
}
