package dev.voiceplane.telephony.api;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.voiceplane.kit.validation.E164;
import dev.voiceplane.kit.validation.E164Validator;
import dev.voiceplane.kit.validation.HttpUrl;
import dev.voiceplane.telephony.domain.Carrier;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * Body of {@code POST /phone-number/import/twilio}, {@code .../vonage} (and their neutral aliases
 * {@code carrierA}/{@code carrierB}) and {@code POST /phone-number} with {@code provider}. One record for all, so
 * that every route accepts exactly the same field names; {@link #problems} says what a route requires.
 */
public record PhoneNumberRequest(
        String provider,
        @Size(max = 40) String number,
        @JsonAlias("carrierAPhoneNumber") @Size(max = 40) String twilioPhoneNumber,
        @JsonAlias("carrierAAccountSid") @Size(max = 100) String twilioAccountSid,
        @JsonAlias("carrierAAuthToken") @Size(max = 200) String twilioAuthToken,
        @JsonAlias("carrierBPhoneNumber") @Size(max = 40) String vonagePhoneNumber,
        @Size(max = 100) String credentialId,
        @Size(max = 40) String name,
        @Size(max = 100) String assistantId,
        @HttpUrl String serverUrl,
        @Size(max = 1000) String serverUrlSecret,
        @jakarta.validation.Valid dev.voiceplane.contracts.assistant.ToolServer server) {

    /** A body without the server object. */
    public PhoneNumberRequest(String provider, String number, String twilioPhoneNumber, String twilioAccountSid,
            String twilioAuthToken, String vonagePhoneNumber, String credentialId, String name, String assistantId,
            String serverUrl, String serverUrlSecret) {
        this(provider, number, twilioPhoneNumber, twilioAccountSid, twilioAuthToken, vonagePhoneNumber, credentialId,
                name, assistantId, serverUrl, serverUrlSecret, null);
    }

    /** The server's address, whichever spelling gave it. */
    public String effectiveServerUrl() {
        return serverUrl != null ? serverUrl : server != null ? server.url() : null;
    }

    /** The server's secret, whichever spelling gave it. */
    public String effectiveServerUrlSecret() {
        return serverUrlSecret != null ? serverUrlSecret : server != null ? server.secret() : null;
    }

    /** Never shows the auth token or the server URL secret, so a log line cannot leak them. */
    @Override
    public String toString() {
        return "PhoneNumberRequest[provider=" + provider + ", number=" + number() + ", twilioAccountSid="
                + twilioAccountSid + ", credentialId=" + credentialId + ", assistantId=" + assistantId + "]";
    }

    /** The number, whichever field carried it ({@code number} or the carrier's own field). */
    public String number() {
        return number != null ? number : twilioPhoneNumber != null ? twilioPhoneNumber : vonagePhoneNumber;
    }

    /**
     * What is wrong with the body for {@code route}: the carrier of an import path, or {@code null} for
     * {@code POST /phone-number}, where {@code provider} names it. Empty when it can be imported.
     */
    public List<String> problems(Carrier route) {
        List<String> problems = new ArrayList<>();
        Carrier carrier = route;
        if (route == null) {
            if (!Carrier.accepts(provider)) {
                problems.add("provider must be one of the following values: " + String.join(", ", Carrier.ACCEPTED));
                return problems;
            }
            carrier = Carrier.of(provider);
        } else if (provider != null) {
            problems.add("property provider should not exist");
        }
        String numberField = carrier == Carrier.TWILIO ? "twilioPhoneNumber" : "vonagePhoneNumber";
        String carrierField = carrier == Carrier.TWILIO ? twilioPhoneNumber : vonagePhoneNumber;
        String otherNumberField = carrier == Carrier.TWILIO ? "vonagePhoneNumber" : "twilioPhoneNumber";
        String otherNumber = carrier == Carrier.TWILIO ? vonagePhoneNumber : twilioPhoneNumber;
        if (otherNumber != null) {
            problems.add("property " + otherNumberField + " should not exist");
        }
        if (route != null && number != null) {
            problems.add("property number should not exist");
        }
        if (route == null && number != null && carrierField != null) {
            problems.add("give the number once: number or " + numberField);
        }
        String given = number != null ? number : carrierField;
        String shownField = route == null && number != null ? "number" : numberField;
        if (given == null || given.isBlank()) {
            problems.add((route == null ? "number" : numberField) + " should not be empty");
        } else if (!E164Validator.valid(given)) {
            problems.add(shownField + " " + E164.MESSAGE);
        }
        if (carrier == Carrier.TWILIO) {
            requireText(problems, "twilioAccountSid", twilioAccountSid);
            requireText(problems, "twilioAuthToken", twilioAuthToken);
            if (credentialId != null) {
                problems.add("property credentialId should not exist");
            }
        } else {
            requireText(problems, "credentialId", credentialId);
            if (twilioAccountSid != null) {
                problems.add("property twilioAccountSid should not exist");
            }
            if (twilioAuthToken != null) {
                problems.add("property twilioAuthToken should not exist");
            }
        }
        if (server != null && serverUrl != null && !serverUrl.equals(server.url())) {
            problems.add("serverUrl and server.url must be the same address when both are given");
        }
        if (server != null && serverUrlSecret != null && server.secret() != null
                && !serverUrlSecret.equals(server.secret())) {
            problems.add("serverUrlSecret and server.secret must be the same when both are given");
        }
        if (effectiveServerUrlSecret() != null && effectiveServerUrl() == null) {
            problems.add("serverUrlSecret needs a serverUrl");
        }
        return problems;
    }

    /** The carrier this body imports from, once {@link #problems} found nothing. */
    public Carrier carrier(Carrier route) {
        return route != null ? route : Carrier.of(provider);
    }

    private static void requireText(List<String> problems, String field, String value) {
        if (value == null || value.isBlank()) {
            problems.add(field + " should not be empty");
        }
    }
}
