package dev.voiceplane.telephony.api;

import java.time.Instant;

/**
 * A phone number as clients see it: never a secret (the carrier's auth token and the customer's
 * {@code serverUrlSecret} are write-only: accepted, sealed at rest, answered only to call-service over the internal
 * route), no billing fields.
 */
public record PhoneNumberView(
        String id,
        String orgId,
        String provider,
        String number,
        String name,
        String assistantId,
        String serverUrl,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        ServerView server,
        String twilioAccountSid,
        String credentialId,
        Instant createdAt,
        Instant updatedAt) {

    /** The {@code server} object as written, without its secret (write-only). */
    public record ServerView(String url, com.fasterxml.jackson.databind.JsonNode headers,
            java.math.BigDecimal timeoutSeconds) {
    }

    @Override
    public String toString() {
        return "PhoneNumberView[id=" + id + ", orgId=" + orgId + ", provider=" + provider + ", number=" + number + "]";
    }
}
