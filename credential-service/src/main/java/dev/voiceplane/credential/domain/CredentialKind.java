package dev.voiceplane.credential.domain;

import dev.voiceplane.contracts.catalog.Providers;
import java.util.List;
import java.util.Set;

/**
 * Which fields a provider's credential takes, as the hosted platform's published SDK has them
 * ({@code Create*CredentialDto}): twilio an account SID and auth token; vonage an API key and secret (and,
 * optionally, the account's signature secret, which authenticates Vonage's signed webhooks at telephony-service);
 * azure an API key and the resource's {@code region} (and optionally its {@code service}, {@code speech}); azure-openai
 * its key as {@code openAIKey} with {@code region}, {@code models} and {@code openAIEndpoint} (and optionally
 * {@code ocpApimSubscriptionKey}), or as the era's {@code apiKey} alone (and {@code voiceA}, the era's word for azure,
 * takes its API key alone, as it did); deepgram an API key and optionally
 * {@code apiUrl} (a self-hosted Deepgram); playht an API key and optionally {@code userId}; minimax an API key and
 * {@code groupId}; every other provider an API key. Provider values are stored as sent; the interface document's
 * neutral words are accepted ({@code carrierA} is twilio, {@code llmB} an LLM provider with an API key).
 */
public enum CredentialKind {
    API_KEY(List.of("apiKey"), List.of()),
    TWILIO(List.of("accountSid", "authToken"), List.of()),
    VONAGE(List.of("apiKey", "apiSecret"), List.of("signatureSecret")),
    AZURE(List.of("apiKey", "region"), List.of("service")),
    /** The interface document's {@code voiceA} (azure): its era form, an API key, stays accepted; a region may be given. */
    VOICE_A(List.of("apiKey"), List.of("region", "service")),
    /** The key is {@code openAIKey} (then region, models and openAIEndpoint are required) or {@code apiKey}. */
    AZURE_OPENAI(List.of(), List.of("apiKey", "openAIKey", "region", "models", "openAIEndpoint", "ocpApimSubscriptionKey")),
    DEEPGRAM(List.of("apiKey"), List.of("apiUrl")),
    PLAYHT(List.of("apiKey"), List.of("userId")),
    MINIMAX(List.of("apiKey", "groupId"), List.of());

    /** Every field any kind takes; the ones a kind does not take must be absent. */
    public static final List<String> ALL_FIELDS = List.of("apiKey", "apiSecret", "accountSid", "authToken",
            "signatureSecret", "region", "service", "openAIKey", "ocpApimSubscriptionKey", "openAIEndpoint", "models",
            "apiUrl", "userId", "groupId");

    /** The fields that are secrets: sealed at rest, never answered by the public API. */
    public static final Set<String> SECRET_FIELDS = Set.of("apiKey", "apiSecret", "authToken", "signatureSecret",
            "openAIKey", "ocpApimSubscriptionKey");

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
        if ("voiceA".equals(provider)) {
            return VOICE_A;
        }
        return switch (Providers.canonical(provider)) {
            case "twilio" -> TWILIO;
            case "vonage" -> VONAGE;
            case "azure" -> AZURE;
            case "azure-openai" -> AZURE_OPENAI;
            case "deepgram" -> DEEPGRAM;
            case "playht" -> PLAYHT;
            case "minimax" -> MINIMAX;
            default -> API_KEY;
        };
    }
}
