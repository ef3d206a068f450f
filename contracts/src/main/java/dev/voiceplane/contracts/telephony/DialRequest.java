package dev.voiceplane.contracts.telephony;

import dev.voiceplane.contracts.assistant.VoicemailDetection;
import dev.voiceplane.kit.validation.E164;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/phone-number/{id}/dial} (docs/call-contracts.md §3): call-service asks for an outbound call
 * from the number. {@code callId} is the idempotency key; {@code voicemailDetection} is the assistant's.
 */
@RegisterForReflection
public record DialRequest(
        @NotBlank @Size(max = 100) String callId,
        @NotNull @Valid DialCustomer customer,
        @Valid VoicemailDetection voicemailDetection,
        @Min(10) @Max(43200) Integer maxDurationSeconds) {

    /** The party to call. */
    @RegisterForReflection
    public record DialCustomer(
            @NotNull @E164 String number,
            @Size(max = 10) @Pattern(regexp = "[0-9*#wW]*", message = "must hold only digits, *, # and w") String extension) {
    }
}
