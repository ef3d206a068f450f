package dev.voiceplane.telephony.api;

import java.time.Instant;

/**
 * A phone number as clients see it: never the carrier's auth token (write-only, compatibility.md §6), the
 * server URL secret as the client stored it, no billing fields.
 */
public record PhoneNumberView(
        String id,
        String orgId,
        String provider,
        String number,
        String name,
        String assistantId,
        String serverUrl,
        String serverUrlSecret,
        String twilioAccountSid,
        String credentialId,
        Instant createdAt,
        Instant updatedAt) {

    @Override
    public String toString() {
        return "PhoneNumberView[id=" + id + ", orgId=" + orgId + ", provider=" + provider + ", number=" + number + "]";
    }
}
