package dev.voiceplane.runtime.provider;

import java.util.Locale;

/**
 * Why a provider failed, typed so that metrics ({@code kind}), logs and the call's transcript say the same thing:
 * {@code provider} is the assistant's value ({@code deepgram}, {@code anthropic}, ...), {@code detail} a short
 * explanation that never holds a key or the caller's words.
 */
public record ProviderError(String provider, Kind kind, String detail) {

    public enum Kind {
        /** The key was refused (401, 403, a close code saying so). */
        AUTH,
        /** Too many requests or too much concurrency (429, a close code saying so). */
        RATE_LIMITED,
        /** No answer within the stage's deadline, or a stream that went silent. */
        TIMEOUT,
        /** Not reachable, 5xx, a connection that dropped. */
        UNAVAILABLE,
        /** An answer that does not follow the provider's protocol (not JSON, not audio, an unknown frame). */
        PROTOCOL,
        /** The provider refused the request itself (4xx other than the above: a bad setting, an unknown voice). */
        REFUSED;

        /** The metric label and the word in messages: {@code rate-limited}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public static ProviderError auth(String provider, String detail) {
        return new ProviderError(provider, Kind.AUTH, detail);
    }

    public static ProviderError timeout(String provider, String detail) {
        return new ProviderError(provider, Kind.TIMEOUT, detail);
    }

    public static ProviderError unavailable(String provider, String detail) {
        return new ProviderError(provider, Kind.UNAVAILABLE, detail);
    }

    public static ProviderError protocol(String provider, String detail) {
        return new ProviderError(provider, Kind.PROTOCOL, detail);
    }

    public static ProviderError refused(String provider, String detail) {
        return new ProviderError(provider, Kind.REFUSED, detail);
    }

    /** The kind an HTTP status says: 401/403 auth, 429 rate-limited, 408/504 timeout, 5xx unavailable, else refused. */
    public static ProviderError ofStatus(String provider, int status, String detail) {
        Kind kind = switch (status) {
            case 401, 403 -> Kind.AUTH;
            case 429 -> Kind.RATE_LIMITED;
            case 408, 504 -> Kind.TIMEOUT;
            default -> status >= 500 ? Kind.UNAVAILABLE : Kind.REFUSED;
        };
        return new ProviderError(provider, kind, detail);
    }

    /** Whether another attempt (a fallback model, later) may succeed where this one failed. */
    public boolean retryable() {
        return kind == Kind.RATE_LIMITED || kind == Kind.TIMEOUT || kind == Kind.UNAVAILABLE;
    }

    @Override
    public String toString() {
        return provider + " " + kind.label() + ": " + detail;
    }
}
