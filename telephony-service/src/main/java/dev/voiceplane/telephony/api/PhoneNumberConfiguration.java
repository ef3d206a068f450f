package dev.voiceplane.telephony.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A number's configuration as call-service needs it ({@code GET /internal/phone-number/{id}}, and inside an
 * inbound call): the public view's fields plus the carrier; never the carrier's secrets.
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

    @Override
    public String toString() {
        return "PhoneNumberConfiguration[id=" + id + ", orgId=" + orgId + ", carrier=" + carrier + ", number=" + number
                + "]";
    }
}
