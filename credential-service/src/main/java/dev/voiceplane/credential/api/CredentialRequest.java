package dev.voiceplane.credential.api;

import dev.voiceplane.credential.domain.CredentialKind;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.kit.validation.HttpUrlValidator;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Body of {@code PUT /credential/{id}} and {@code POST /credential}: the provider and the fields its kind takes
 * ({@link CredentialKind}: {@code apiKey}; twilio {@code accountSid} + {@code authToken}; vonage {@code apiKey} +
 * {@code apiSecret}, and optionally {@code signatureSecret}; azure {@code apiKey} + {@code region}; azure-openai,
 * deepgram, playht and minimax their SDK fields). The secret fields ({@link CredentialKind#SECRET_FIELDS}) are sealed
 * at rest and never returned; the others ({@code accountSid}, {@code region}, {@code service},
 * {@code openAIEndpoint}, {@code models}, {@code apiUrl}, {@code userId}, {@code groupId}) are identifiers and
 * addresses, stored and answered as sent.
 */
public record CredentialRequest(
        String provider,
        @Size(max = 40) String name,
        @Size(max = 10000) String apiKey,
        @Size(max = 10000) String apiSecret,
        @Size(max = 200) String accountSid,
        @Size(max = 10000) String authToken,
        @Size(max = 10000) String signatureSecret,
        @Size(max = 50) String region,
        String service,
        @Size(max = 10000) String openAIKey,
        @Size(max = 10000) String ocpApimSubscriptionKey,
        String openAIEndpoint,
        List<String> models,
        String apiUrl,
        @Size(max = 200) String userId,
        @Size(max = 200) String groupId) {

    /** An Azure region's name, as its endpoints spell it ({@code eastus}, {@code westeurope}, {@code westus3}). */
    static final Pattern AZURE_REGION = Pattern.compile("[a-z][a-z0-9]*");

    /** The services an azure credential may name: speech (blob storage is no credential this platform uses). */
    static final Set<String> AZURE_SERVICES = Set.of("speech");

    /** The most deployments an azure-openai credential lists, and the longest name of one. */
    static final int MAX_MODELS = 100;
    static final int MAX_MODEL_LENGTH = 200;

    /** Never shows the secret fields, so a log line or an exception message cannot leak them. */
    @Override
    public String toString() {
        return "CredentialRequest[provider=" + provider + ", name=" + name + ", accountSid=" + accountSid
                + ", fields=" + fields().keySet() + ", secrets=" + secrets().keySet() + "]";
    }

    /** What is wrong with the body for its provider; empty when it can be stored. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (provider == null || !CredentialKind.ACCEPTED_PROVIDERS.contains(provider)) {
            problems.add(Providers.mustBeOneOf("provider", CredentialKind.ACCEPTED_PROVIDERS));
            return problems;
        }
        CredentialKind kind = CredentialKind.of(provider);
        Map<String, Object> given = given();
        for (String field : CredentialKind.ALL_FIELDS) {
            Object value = given.get(field);
            if (kind.fields().contains(field)) {
                if (empty(value)) {
                    problems.add(field + " should not be empty");
                }
            } else if (kind.optionalFields().contains(field)) {
                if (value != null && empty(value)) {
                    problems.add(field + " should not be empty");
                }
            } else if (value != null) {
                problems.add("property " + field + " should not exist");
            }
        }
        if (kind == CredentialKind.AZURE_OPENAI) {
            azureOpenAi(problems);
        }
        formats(kind, problems);
        return problems;
    }

    /** The key once, as {@code openAIKey} (the SDK's form, with its required fields) or as the era's {@code apiKey}. */
    private void azureOpenAi(List<String> problems) {
        if (apiKey != null && openAIKey != null) {
            problems.add("openAIKey and apiKey are the same key: give one of them");
        } else if (apiKey == null && openAIKey == null) {
            problems.add("openAIKey should not be empty");
        } else if (openAIKey != null) {
            requireGiven(problems, "region", region);
            requireGiven(problems, "models", models);
            requireGiven(problems, "openAIEndpoint", openAIEndpoint);
        }
    }

    /** A blank value was reported with the kind's fields; an absent one is reported here. */
    private static void requireGiven(List<String> problems, String field, Object value) {
        if (value == null) {
            problems.add(field + " should not be empty");
        }
    }

    /** The values' own rules, for the fields the kind takes (the others were refused already). */
    private void formats(CredentialKind kind, List<String> problems) {
        if (takes(kind, "region") && region != null && !region.isBlank() && !AZURE_REGION.matcher(region).matches()) {
            problems.add("region must be an Azure region name such as eastus (lower-case letters and digits)");
        }
        if (takes(kind, "service") && service != null && !service.isBlank() && !AZURE_SERVICES.contains(service)) {
            problems.add(Providers.mustBeOneOf("service", AZURE_SERVICES));
        }
        for (Map.Entry<String, String> address : addresses().entrySet()) {
            if (takes(kind, address.getKey()) && address.getValue() != null && !address.getValue().isBlank()
                    && !new HttpUrlValidator().isValid(address.getValue(), null)) {
                problems.add(address.getKey() + " must be a URL address");
            }
        }
        if (takes(kind, "models") && models != null) {
            if (models.size() > MAX_MODELS) {
                problems.add("models must contain no more than " + MAX_MODELS + " elements");
            }
            for (int i = 0; i < models.size(); i++) {
                String model = models.get(i);
                if (model == null) {
                    problems.add("models." + i + " should not be null or undefined");
                } else if (model.isBlank()) {
                    problems.add("models." + i + " should not be empty");
                } else if (model.length() > MAX_MODEL_LENGTH) {
                    problems.add("models." + i + " must be shorter than or equal to " + MAX_MODEL_LENGTH + " characters");
                }
            }
        }
    }

    private static boolean takes(CredentialKind kind, String field) {
        return kind.fields().contains(field) || kind.optionalFields().contains(field);
    }

    private Map<String, String> addresses() {
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("openAIEndpoint", openAIEndpoint);
        addresses.put("apiUrl", apiUrl);
        return addresses;
    }

    /** The secret fields, to be sealed. */
    public Map<String, String> secrets() {
        Map<String, String> secrets = new LinkedHashMap<>();
        given().forEach((field, value) -> {
            if (value != null && CredentialKind.SECRET_FIELDS.contains(field)) {
                secrets.put(field, (String) value);
            }
        });
        return secrets;
    }

    /**
     * The fields that are not secrets and have no column of their own (everything but {@code accountSid}), as
     * given: stored and answered as sent.
     */
    public Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        given().forEach((field, value) -> {
            if (value != null && !CredentialKind.SECRET_FIELDS.contains(field) && !field.equals("accountSid")) {
                fields.put(field, value);
            }
        });
        return fields;
    }

    private static boolean empty(Object value) {
        return value == null || (value instanceof String text && text.isBlank())
                || (value instanceof List<?> list && list.isEmpty());
    }

    private Map<String, Object> given() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("apiKey", apiKey);
        fields.put("apiSecret", apiSecret);
        fields.put("accountSid", accountSid);
        fields.put("authToken", authToken);
        fields.put("signatureSecret", signatureSecret);
        fields.put("region", region);
        fields.put("service", service);
        fields.put("openAIKey", openAIKey);
        fields.put("ocpApimSubscriptionKey", ocpApimSubscriptionKey);
        fields.put("openAIEndpoint", openAIEndpoint);
        fields.put("models", models);
        fields.put("apiUrl", apiUrl);
        fields.put("userId", userId);
        fields.put("groupId", groupId);
        return fields;
    }
}
