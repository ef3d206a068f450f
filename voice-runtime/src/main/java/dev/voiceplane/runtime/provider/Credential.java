package dev.voiceplane.runtime.provider;

import java.util.Map;

/**
 * The organisation's credential for a provider, read from credential-service when the call (or a squad member)
 * starts and never stored or logged: the key (null for a provider that may take none) and the credential's
 * non-secret fields a vendor needs (Azure's {@code region}).
 */
public record Credential(String apiKey, Map<String, String> fields) {

    public static final Credential NONE = new Credential(null, Map.of());

    public Credential {
        fields = fields == null ? Map.of() : Map.copyOf(fields);
    }

    public static Credential key(String apiKey) {
        return new Credential(apiKey, Map.of());
    }

    public String field(String name) {
        return fields.get(name);
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "Credential[fields=" + fields.keySet() + "]";
    }
}
