package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * {@code POST /internal/call/events} (docs/call-contracts.md §2): one thing a carrier reported about a call.
 * {@code eventId} is unique per carrier report, so call-service records each once however often it arrives.
 */
@RegisterForReflection
public record CallEvent(
        String eventId,
        String callId,
        String phoneCallProvider,
        String phoneCallProviderId,
        String type,
        String carrierStatus,
        String answeredBy,
        Long sequenceNumber,
        Long durationSeconds,
        Integer sipResponseCode,
        String carrierTimestamp,
        String direction) {

    public static final String STATUS = "status";
    public static final String ANSWERED_BY = "answered-by";
}
