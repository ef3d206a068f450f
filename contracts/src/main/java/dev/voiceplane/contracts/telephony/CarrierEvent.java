package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /internal/call/events} (docs/call-contracts.md §2): one thing a carrier reported about a call.
 * {@code eventId} is unique per carrier report, so it is recorded once however often it arrives. The call is named
 * by {@code callId} (calls placed through a dial) or by the carrier's call id.
 */
@RegisterForReflection
public record CarrierEvent(
        @NotBlank @Size(max = 300) String eventId,
        @Size(max = 36) String callId,
        @NotBlank @Size(max = 20) String phoneCallProvider,
        @NotBlank @Size(max = 200) String phoneCallProviderId,
        @NotBlank @Size(max = 30) String type,
        @Size(max = 40) String carrierStatus,
        @Size(max = 40) String answeredBy,
        Long sequenceNumber,
        Long durationSeconds,
        Integer sipResponseCode,
        @Size(max = 60) String carrierTimestamp,
        @Size(max = 20) String direction) {

    public static final String STATUS = "status";
    public static final String ANSWERED_BY = "answered-by";
}
