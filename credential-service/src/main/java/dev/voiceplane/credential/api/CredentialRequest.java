package dev.voiceplane.credential.api;

import dev.voiceplane.credential.domain.CredentialKind;
import dev.voiceplane.contracts.catalog.Providers;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code PUT /credential/{id}} and {@code POST /credential}: the provider and the fields its kind takes
 * ({@code apiKey}; twilio {@code accountSid} + {@code authToken}; vonage {@code apiKey} + {@code apiSecret}, and
 * optionally {@code signatureSecret}, the account's webhook signature secret). Every field but {@code provider},
 * {@code name} and {@code accountSid} is a secret: sealed at rest, never returned.
 */
public record CredentialRequest(
        String provider,
        @Size(max = 40) String name,
        @Size(max = 10000) String apiKey,
        @Size(max = 10000) String apiSecret,
        @Size(max = 200) String accountSid,
        @Size(max = 10000) String authToken,
        @Size(max = 10000) String signatureSecret) {

    /** Never shows the secret fields, so a log line or an exception message cannot leak them. */
    @Override
    public String toString() {
        return "CredentialRequest[provider=" + provider + ", name=" + name + ", accountSid=" + accountSid
                + ", secrets=" + secrets().keySet() + "]";
    }

    /** What is wrong with the body for its provider; empty when it can be stored. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (provider == null || !CredentialKind.ACCEPTED_PROVIDERS.contains(provider)) {
            problems.add(Providers.mustBeOneOf("provider", CredentialKind.ACCEPTED_PROVIDERS));
            return problems;
        }
        CredentialKind kind = CredentialKind.of(provider);
        Map<String, String> given = fields();
        for (String field : CredentialKind.ALL_FIELDS) {
            String value = given.get(field);
            if (kind.fields().contains(field)) {
                if (value == null || value.isBlank()) {
                    problems.add(field + " should not be empty");
                }
            } else if (kind.optionalFields().contains(field)) {
                if (value != null && value.isBlank()) {
                    problems.add(field + " should not be empty");
                }
            } else if (value != null) {
                problems.add("property " + field + " should not exist");
            }
        }
        return problems;
    }

    /** The secret fields, to be sealed: everything the kind takes except the account SID. */
    public Map<String, String> secrets() {
        Map<String, String> secrets = new LinkedHashMap<>(fields());
        secrets.remove("accountSid");
        secrets.values().removeIf(value -> value == null);
        return secrets;
    }

    private Map<String, String> fields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("apiKey", apiKey);
        fields.put("apiSecret", apiSecret);
        fields.put("accountSid", accountSid);
        fields.put("authToken", authToken);
        fields.put("signatureSecret", signatureSecret);
        return fields;
    }
}
