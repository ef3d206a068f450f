package dev.voiceplane.call.api;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.validation.E164;
import dev.voiceplane.kit.validation.HttpUrl;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * An inline {@code phoneNumber} on call creation: the era's phone-number import body (docs/calls.md,
 * "Inline phone number"), used for this one call instead of an imported number. The same field names as
 * telephony-service's import routes are accepted ({@code twilioPhoneNumber}, {@code carrierA…}, {@code number} with
 * {@code provider}); {@link #normalised()} gives the one shape telephony-service's {@code dial-inline} takes
 * (docs/calls.md "Inline phone number"). The carrier's secrets are sealed when the call stores it and never shown.
 */
@RegisterForReflection
public record InlinePhoneNumber(
        String provider,
        @Size(max = 40) @E164 String number,
        @JsonAlias("carrierAPhoneNumber") @Size(max = 40) @E164 String twilioPhoneNumber,
        @JsonAlias("carrierAAccountSid") @Size(max = 100) String twilioAccountSid,
        @JsonAlias("carrierAAuthToken") @Size(max = 200) String twilioAuthToken,
        @JsonAlias("carrierBPhoneNumber") @Size(max = 40) @E164 String vonagePhoneNumber,
        @Size(max = 100) String credentialId,
        @Size(max = 40) String name,
        @HttpUrl String serverUrl,
        @Size(max = 1000) String serverUrlSecret) {

    public static final String TWILIO = "twilio";
    public static final String VONAGE = "vonage";

    /** Never shows the auth token or the webhook secret, so a log line cannot leak them. */
    @Override
    public String toString() {
        return "InlinePhoneNumber[carrier=" + carrier() + ", number=" + theNumber() + "]";
    }

    /** twilio or vonage: {@code provider} when given, else what the fields say; null when nothing says. */
    public String carrier() {
        if (provider != null) {
            return Providers.canonical(provider);
        }
        if (twilioPhoneNumber != null || twilioAccountSid != null || twilioAuthToken != null) {
            return TWILIO;
        }
        if (vonagePhoneNumber != null || credentialId != null) {
            return VONAGE;
        }
        return null;
    }

    /** The number, whichever field carried it. */
    public String theNumber() {
        return number != null ? number : twilioPhoneNumber != null ? twilioPhoneNumber : vonagePhoneNumber;
    }

    /** What is wrong beyond single fields (messages carry the {@code phoneNumber.} path); empty when usable. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        String carrier = carrier();
        if (!TWILIO.equals(carrier) && !VONAGE.equals(carrier)) {
            problems.add("phoneNumber.provider must be one of the following values: carrierA, carrierB, twilio, vonage");
            return problems;
        }
        int numbers = (number != null ? 1 : 0) + (twilioPhoneNumber != null ? 1 : 0) + (vonagePhoneNumber != null ? 1 : 0);
        if (numbers == 0) {
            problems.add("phoneNumber.number should not be empty");
        } else if (numbers > 1) {
            problems.add("phoneNumber: give the number once (number, twilioPhoneNumber or vonagePhoneNumber)");
        }
        if (TWILIO.equals(carrier)) {
            requireText(problems, "twilioAccountSid", twilioAccountSid);
            requireText(problems, "twilioAuthToken", twilioAuthToken);
            refuse(problems, "credentialId", credentialId);
            refuse(problems, "vonagePhoneNumber", vonagePhoneNumber);
        } else {
            requireText(problems, "credentialId", credentialId);
            refuse(problems, "twilioAccountSid", twilioAccountSid);
            refuse(problems, "twilioAuthToken", twilioAuthToken);
            refuse(problems, "twilioPhoneNumber", twilioPhoneNumber);
        }
        if (serverUrlSecret != null && serverUrl == null) {
            problems.add("phoneNumber.serverUrlSecret needs a serverUrl");
        }
        return problems;
    }

    /**
     * The body as telephony-service's {@code POST /phone-number} takes it ({@code provider} and {@code number}),
     * with its secrets: the internal contract's record, what the call freezes (sealed) and what {@code dial-inline}
     * receives.
     */
    public dev.voiceplane.contracts.telephony.InlinePhoneNumber normalised() {
        return new dev.voiceplane.contracts.telephony.InlinePhoneNumber(carrier(), theNumber(), twilioAccountSid,
                twilioAuthToken, credentialId, name, null, serverUrl, serverUrlSecret);
    }

    /** The fields of a normalised body that are secrets: sealed at rest, never shown. */
    public static final List<String> SECRET_FIELDS = List.of("twilioAuthToken", "serverUrlSecret");

    /** A normalised body as the Call shows it: without its secrets. */
    public static ObjectNode shown(ObjectNode normalised) {
        ObjectNode shown = normalised.deepCopy();
        shown.remove(SECRET_FIELDS);
        return shown;
    }

    /** The configuration a normalised body gives the call (as an imported number's, without an id). */
    public static PhoneNumberConfiguration configuration(String orgId,
            dev.voiceplane.contracts.telephony.InlinePhoneNumber normalised) {
        String carrier = normalised.provider();
        return new PhoneNumberConfiguration(null, orgId, carrier, carrier, normalised.number(), normalised.name(), null,
                normalised.serverUrl(), normalised.serverUrlSecret(), normalised.twilioAccountSid(),
                normalised.credentialId());
    }

    private static void requireText(List<String> problems, String field, String value) {
        if (value == null || value.isBlank()) {
            problems.add("phoneNumber." + field + " should not be empty");
        }
    }

    private static void refuse(List<String> problems, String field, String value) {
        if (value != null) {
            problems.add("property phoneNumber." + field + " should not exist");
        }
    }
}
