package dev.voiceplane.telephony.carrier;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Twilio's request signature ({@code X-Twilio-Signature}): base64 of HMAC-SHA1, keyed with the account's auth
 * token, over the full URL Twilio requested followed by every POST parameter as name + value, names sorted in
 * code-unit order, values URL-decoded. As Twilio's own validator does, the URL is also tried with and without the
 * scheme's default port. JSON bodies are signed differently: Twilio adds {@code bodySHA256=<hex SHA-256 of the raw
 * body>} to the URL's query and signs the URL alone ({@link #isValidWithBody}). Published algorithm:
 * twilio.com/docs/usage/security#validating-requests.
 */
public final class TwilioSignature {

    private TwilioSignature() {
    }

    /** The signature Twilio sends for this URL and these POST parameters. */
    public static String compute(String authToken, String url, Map<String, List<String>> params) {
        StringBuilder data = new StringBuilder(url);
        // Names in code-unit order (TreeMap on String, as Twilio's Collections.sort); a repeated name's values
        // in order too, as Twilio's newer validators sign them.
        for (Map.Entry<String, List<String>> param : new TreeMap<>(params).entrySet()) {
            List<String> values = new ArrayList<>(param.getValue());
            values.sort(null);
            for (String value : values) {
                data.append(param.getKey()).append(value);
            }
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(authToken.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(data.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is part of every JDK", e);
        }
    }

    /** True when {@code signature} is Twilio's for this request, compared in constant time. */
    public static boolean isValid(String authToken, String url, Map<String, List<String>> params, String signature) {
        if (authToken == null || authToken.isEmpty() || signature == null || signature.isBlank()) {
            return false;
        }
        byte[] presented = signature.strip().getBytes(StandardCharsets.UTF_8);
        boolean valid = false;
        for (String candidate : urlVariants(url)) {
            // No early exit: every variant is checked whatever the outcome.
            valid |= MessageDigest.isEqual(presented,
                    compute(authToken, candidate, params).getBytes(StandardCharsets.UTF_8));
        }
        return valid;
    }

    /** The query parameter that carries the hash of a JSON body. */
    public static final String BODY_HASH = "bodySHA256";

    /**
     * True when {@code signature} is Twilio's for a request with a JSON body: the URL (which carries
     * {@code bodySHA256}) signed with no parameters, and that hash is the SHA-256 of {@code body}. Both are checked
     * whatever the outcome of the first, and compared in constant time.
     */
    public static boolean isValidWithBody(String authToken, String url, byte[] body, String signature) {
        String declared = queryValue(url, BODY_HASH);
        if (declared == null || body == null) {
            return false;
        }
        boolean signed = isValid(authToken, url, Map.of(), signature);
        byte[] actual = HexFormat.of().formatHex(sha256(body)).getBytes(StandardCharsets.US_ASCII);
        boolean matches = MessageDigest.isEqual(actual, declared.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        return signed & matches;
    }

    /** A parameter of the URL's raw query, decoded; null when absent or not decodable. */
    public static String queryValue(String url, String name) {
        int question = url == null ? -1 : url.indexOf('?');
        if (question < 0) {
            return null;
        }
        for (String pair : url.substring(question + 1).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0 && pair.substring(0, equals).equals(name)) {
                try {
                    return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The URL as given, without the scheme's default port, and with it. */
    static Set<String> urlVariants(String url) {
        Set<String> variants = new LinkedHashSet<>();
        variants.add(url);
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            int defaultPort = "https".equalsIgnoreCase(scheme) ? 443 : "http".equalsIgnoreCase(scheme) ? 80 : -1;
            if (defaultPort < 0 || uri.getRawAuthority() == null) {
                return variants;
            }
            String authority = uri.getRawAuthority();
            String hostOnly = authority.endsWith(":" + defaultPort)
                    ? authority.substring(0, authority.length() - (":" + defaultPort).length())
                    : authority;
            if (hostOnly.matches(".*:\\d+$") && !hostOnly.endsWith("]")) {
                return variants;
            }
            String prefix = scheme + "://";
            String rest = url.substring(prefix.length() + authority.length());
            variants.add(prefix + hostOnly + rest);
            variants.add(prefix + hostOnly + ":" + defaultPort + rest);
        } catch (URISyntaxException | StringIndexOutOfBoundsException e) {
            // Not a URL we can vary: the signature is checked against it as given.
        }
        return variants;
    }
}
