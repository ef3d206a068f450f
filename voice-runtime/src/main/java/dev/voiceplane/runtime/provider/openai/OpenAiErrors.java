package dev.voiceplane.runtime.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.provider.ProviderError;
import java.util.Locale;

/**
 * An {@code error} event of OpenAI's Realtime API, typed by its {@code type} and {@code code}, and the close that
 * follows one, typed by its reason.
 */
final class OpenAiErrors {

    private OpenAiErrors() {
    }

    /**
     * {@code invalid_api_key} and {@code authentication_error} are auth, {@code rate_limit_*} and
     * {@code insufficient_quota} rate-limited, other invalid requests refused, anything else (server_error) unavailable.
     */
    static ProviderError of(String provider, JsonNode error, String what) {
        String type = error.path("type").asText("");
        String code = error.path("code").asText("");
        String detail = what + " (" + type + (code.isEmpty() ? "" : " " + code) + ")";
        if ("invalid_api_key".equals(code) || "authentication_error".equals(type) || type.contains("permission")) {
            return ProviderError.auth(provider, detail);
        }
        if (code.startsWith("rate_limit") || type.startsWith("rate_limit") || "insufficient_quota".equals(code)) {
            return new ProviderError(provider, ProviderError.Kind.RATE_LIMITED, detail);
        }
        if ("invalid_request_error".equals(type)) {
            return ProviderError.refused(provider, detail);
        }
        return ProviderError.unavailable(provider, detail);
    }

    /**
     * A close after an error event, whose reason is {@code <type>.<code>} (an invalid key: 3000
     * {@code ...invalid_api_key}): auth or rate-limited as the event would be; null when the reason says neither.
     */
    static ProviderError closed(String provider, int code, String reason, String what) {
        String why = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
        String detail = what + " (" + code + (why.isEmpty() ? "" : " " + reason) + ")";
        if (why.contains("api_key") || why.contains("authentication")) {
            return ProviderError.auth(provider, detail);
        }
        if (why.contains("rate_limit") || why.contains("insufficient_quota")) {
            return new ProviderError(provider, ProviderError.Kind.RATE_LIMITED, detail);
        }
        return null;
    }
}
