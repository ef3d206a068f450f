package dev.voiceplane.contracts.telephony;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.voiceplane.kit.validation.E164;
import dev.voiceplane.kit.validation.HttpUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Size;

/**
 * A number given inline instead of imported (docs/call-contracts.md §3, dial-inline): the body of
 * {@code POST /phone-number} (provider {@code twilio} with {@code number}, {@code twilioAccountSid},
 * {@code twilioAuthToken}; or {@code vonage} with {@code number}, {@code credentialId}), the optional fields
 * accepted as there. telephony-service checks which fields the provider requires; the auth token is a secret.
 * call-service builds it from its public {@code phoneNumber} body (which also takes the carriers' own number fields)
 * and freezes it in the call; absent fields are left out of the JSON, as the client left them out.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InlinePhoneNumber(
        String provider,
        @E164 String number,
        @Size(max = 100) String twilioAccountSid,
        @Size(max = 200) String twilioAuthToken,
        @Size(max = 100) String credentialId,
        @Size(max = 40) String name,
        @Size(max = 100) String assistantId,
        @HttpUrl String serverUrl,
        @Size(max = 1000) String serverUrlSecret) {

    /** Never shows the auth token or the server URL secret. */
    @Override
    public String toString() {
        return "InlinePhoneNumber[provider=" + provider + ", number=" + number + ", twilioAccountSid="
                + twilioAccountSid + ", credentialId=" + credentialId + "]";
    }
}
