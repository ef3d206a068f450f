package dev.voiceplane.contracts.call;

import dev.voiceplane.kit.validation.E164;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/**
 * {@code POST /internal/call/{id}/runtime/transfer} (docs/calls.md, "Voice runtime contract"): the assistant hands
 * the caller to {@code number}; call-service has telephony-service redirect the carrier call there, records
 * {@code forwarding} with {@code forwardedPhoneNumber} and ends the call {@code assistant-forwarded-call}.
 */
@RegisterForReflection
public record RuntimeTransfer(@NotNull @E164 String number) {

    /** The call after the transfer: {@code ended}, {@code assistant-forwarded-call}, the number it rings. */
    @RegisterForReflection
    public record Answer(String status, String endedReason, String forwardedPhoneNumber) {
    }
}
