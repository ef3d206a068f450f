package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** {@code POST /internal/phone-number/{id}/hangup} (docs/call-contracts.md §4): end this carrier call of the number. */
@RegisterForReflection
public record HangupRequest(@NotBlank @Size(max = 100) String phoneCallProviderId) {
}
