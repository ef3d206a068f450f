package dev.voiceplane.telephony.carrier;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@code application/x-www-form-urlencoded} body as a carrier sent it: every name with all its values, in the
 * order sent, values URL-decoded exactly once ({@code %2B1415...} is {@code +1415...}, {@code +} a space).
 */
public final class FormBody {

    private FormBody() {
    }

    public static Map<String, List<String>> parse(byte[] body) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return params;
        }
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            params.computeIfAbsent(name, ignored -> new ArrayList<>()).add(value);
        }
        return params;
    }

    /** The single value of {@code name}, or null when it is absent. */
    public static String first(Map<String, List<String>> params, String name) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    private static String decode(String encoded) {
        try {
            return URLDecoder.decode(encoded, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            // A broken %-escape: keep the text as sent; the signature check will then fail on it.
            return encoded;
        }
    }
}
