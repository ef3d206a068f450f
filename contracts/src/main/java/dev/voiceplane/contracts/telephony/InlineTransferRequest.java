package dev.voiceplane.contracts.telephony;

import dev.voiceplane.kit.validation.E164;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/phone-number/transfer-inline} (docs/call-contracts.md §6): the transfer of a call dialled
 * from an inline number, found by {@code phoneCallProviderId} among the organisation's inline dials;
 * {@code phoneNumber} (the inline body the call was dialled with) is accepted and not needed, as for hangup-inline.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InlineTransferRequest(
        @NotBlank @Size(max = 100) String phoneCallProviderId,
        @NotNull @E164 String number,
        @Valid InlinePhoneNumber phoneNumber) {
}
