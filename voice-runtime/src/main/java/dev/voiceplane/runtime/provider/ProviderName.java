package dev.voiceplane.runtime.provider;

/**
 * One value of an assistant's {@code provider} field that a provider bean serves: the value, the credential provider
 * whose key it uses (usually the same word), and whether it may run without one (a self-hosted server).
 */
public record ProviderName(String value, String credential, boolean keyOptional) {

    /** A provider whose credential has its own name and is required. */
    public static ProviderName of(String value) {
        return new ProviderName(value, value, false);
    }

    public static ProviderName of(String value, String credential) {
        return new ProviderName(value, credential, false);
    }
}
