package dev.voiceplane.contracts.telephony;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;

/**
 * A number's configuration as call-service needs it (docs/call-contracts.md §5, and inside an inbound call §1):
 * the public view's fields plus the carrier; never a carrier secret. {@code serverUrlSecret} is the customer's own
 * webhook secret (call-service seals it when a call freezes it); {@code serverHeaders} and
 * {@code serverTimeoutSeconds} are its {@code server} object's custom headers and timeout.
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
        String credentialId,
        ObjectNode serverHeaders,
        BigDecimal serverTimeoutSeconds) {

    /** A number without custom server headers or timeout. */
    public PhoneNumberConfiguration(String id, String orgId, String provider, String carrier, String number,
            String name, String assistantId, String serverUrl, String serverUrlSecret, String twilioAccountSid,
            String credentialId) {
        this(id, orgId, provider, carrier, number, name, assistantId, serverUrl, serverUrlSecret, twilioAccountSid,
                credentialId, null, null);
    }

    /** twilio or vonage: {@code carrier}, or the public view's {@code provider} when a sender left it out. */
    public String carrierName() {
        return carrier != null ? carrier : provider;
    }

    /** The number as server messages show it: without the customer's secret. */
    public PhoneNumberConfiguration withoutSecret() {
        return new PhoneNumberConfiguration(id, orgId, provider, carrier, number, name, assistantId, serverUrl, null,
                twilioAccountSid, credentialId, serverHeaders, serverTimeoutSeconds);
    }

    /** Never shows {@code serverUrlSecret}. */
    @Override
    public String toString() {
        return "PhoneNumberConfiguration[id=" + id + ", orgId=" + orgId + ", carrier=" + carrierName() + ", number="
                + number + "]";
    }
}
