package dev.voiceplane.call.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A phone number's configuration as telephony-service gives it ({@code GET /internal/phone-number/{id}} and inside
 * an inbound call; docs/calls.md). Never carries the carrier's secrets; {@code serverUrlSecret} is the customer's own
 * webhook secret, sealed when a call freezes it.
 */
@RegisterForReflection
public record PhoneNumberConfiguration(
        String id,
        String orgId,
        String provider,
        String carrier,
        String number,
        String name,
        String assistantId,
        String serverUrl,
        String serverUrlSecret,
        String twilioAccountSid,
        String credentialId) {

    /** twilio or vonage: telephony-service names it {@code carrier} (and {@code provider} in the public view). */
    public String carrierName() {
        return carrier != null ? carrier : provider;
    }

    /** The number as server messages show it: without the customer's secret. */
    public PhoneNumberConfiguration withoutSecret() {
        return new PhoneNumberConfiguration(id, orgId, provider, carrier, number, name, assistantId, serverUrl, null,
                twilioAccountSid, credentialId);
    }

    @Override
    public String toString() {
        return "PhoneNumberConfiguration[id=" + id + ", carrier=" + carrierName() + ", number=" + number + "]";
    }
}
