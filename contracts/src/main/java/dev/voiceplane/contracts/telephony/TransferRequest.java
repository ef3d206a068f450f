package dev.voiceplane.contracts.telephony;

import dev.voiceplane.kit.validation.E164;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/phone-number/{id}/transfer} (docs/call-contracts.md §6): redirect this live carrier call of
 * the number to {@code number} (E.164), dialled with the number's own caller id. Idempotent per carrier call.
 */
@RegisterForReflection
public record TransferRequest(
        @NotBlank @Size(max = 100) String phoneCallProviderId,
        @NotNull @E164 String number) {
}
