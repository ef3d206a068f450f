package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The answer to a transfer: the carrier call now rings {@code forwardedPhoneNumber}. */
@RegisterForReflection
public record TransferAnswer(String phoneCallProvider, String phoneCallProviderId, String forwardedPhoneNumber,
        boolean transferred) {
}
