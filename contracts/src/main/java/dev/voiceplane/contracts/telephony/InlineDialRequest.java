package dev.voiceplane.contracts.telephony;

import dev.voiceplane.contracts.assistant.VoicemailDetection;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/phone-number/dial-inline} (docs/call-contracts.md §3): a {@link DialRequest} from a number
 * that is not imported, given inline. Same answers as a dial; {@code callId} is the idempotency key.
 */
@RegisterForReflection
public record InlineDialRequest(
        @NotBlank @Size(max = 100) String callId,
        @NotNull @Valid DialRequest.DialCustomer customer,
        @Valid VoicemailDetection voicemailDetection,
        @Min(10) @Max(43200) Integer maxDurationSeconds,
        @NotNull @Valid InlinePhoneNumber phoneNumber) {

    /** The dial part, as for an imported number. */
    public DialRequest dial() {
        return new DialRequest(callId, customer, voicemailDetection, maxDurationSeconds);
    }
}
