package dev.voiceplane.credential.domain;

import dev.voiceplane.contracts.catalog.Providers;
import java.util.List;
import java.util.Set;

/**
 * Which fields a provider's credential takes: twilio an account SID and auth token, vonage an API key and
 * secret (and, optionally, the account's signature secret, which authenticates Vonage's signed webhooks at
 * telephony-service), every other provider an API key. Provider values are stored as sent; the interface document's
 * neutral words are accepted ({@code carrierA} is twilio, {@code llmB} an LLM provider with an API key).
 */
public enum CredentialKind {
    API_KEY(List.of("apiKey"), List.of()),
    TWILIO(List.of("accountSid", "authToken"), List.of()),
    VONAGE(List.of("apiKey", "apiSecret"), List.of("signatureSecret"));

    /** Every field any kind takes; the ones a kind does not take must be absent. */
    public static final List<String> ALL_FIELDS = List.of("apiKey", "apiSecret", "accountSid", "authToken",
            "signatureSecret");

    /** Credential providers accepted on the wire: the real identifiers and the neutral words (the kit's list). */
    public static final Set<String> ACCEPTED_PROVIDERS = Providers.CREDENTIAL_ACCEPTED;

    private final List<String> fields;
    private final List<String> optionalFields;

    CredentialKind(List<String> fields, List<String> optionalFields) {
        this.fields = fields;
        this.optionalFields = optionalFields;
    }

    /** The fields this kind requires. */
    public List<String> fields() {
        return fields;
    }

    /** The fields this kind takes when given (not empty then), and does without. */
    public List<String> optionalFields() {
        return optionalFields;
    }

    public static CredentialKind of(String provider) {
        return switch (Providers.canonical(provider)) {
            case "twilio" -> TWILIO;
            case "vonage" -> VONAGE;
            default -> API_KEY;
        };
    }
}
