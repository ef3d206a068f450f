package dev.voiceplane.telephony.carrier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Vonage's signed webhooks: {@code Authorization: Bearer <JWT>}, HS256 with the account's signature secret, claims
 * {@code iat}, {@code jti}, {@code api_key}, {@code application_id} and {@code payload_hash} (hex SHA-256 of the raw
 * body). Checked here: the algorithm is HS256 (nothing else is accepted, {@code none} least of all), the HMAC in
 * constant time, {@code iat} within the tolerance of now (older tokens are replays), {@code exp}/{@code nbf} when
 * present, and the payload hash of any non-empty body. Published: developer.vonage.com signed webhooks.
 */
public final class VonageSignature {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

    private VonageSignature() {
    }

    /** Why a token was refused, for the log line (never the token or the secret). */
    public enum Verdict {
        VALID, MALFORMED, WRONG_ALGORITHM, BAD_SIGNATURE, OUTSIDE_WINDOW, PAYLOAD_MISMATCH
    }

    /** The token's claims, NOT verified: only to learn which account's secret to verify it with. */
    public static Optional<JsonNode> unverifiedClaims(String token) {
        String[] parts = split(token);
        if (parts == null) {
            return Optional.empty();
        }
        return decodeJson(parts[1]);
    }

    public static Verdict verify(String token, String secret, byte[] body, Instant now, Duration tolerance) {
        String[] parts = split(token);
        if (parts == null || secret == null || secret.isEmpty()) {
            return Verdict.MALFORMED;
        }
        Optional<JsonNode> header = decodeJson(parts[0]);
        Optional<JsonNode> claims = decodeJson(parts[1]);
        if (header.isEmpty() || claims.isEmpty()) {
            return Verdict.MALFORMED;
        }
        if (!"HS256".equals(header.get().path("alg").asText())) {
            return Verdict.WRONG_ALGORITHM;
        }
        byte[] presented;
        try {
            presented = BASE64URL.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return Verdict.MALFORMED;
        }
        byte[] expected = hmacSha256(secret, parts[0] + "." + parts[1]);
        if (!MessageDigest.isEqual(expected, presented)) {
            return Verdict.BAD_SIGNATURE;
        }
        JsonNode claim = claims.get();
        if (!claim.path("iat").isNumber()) {
            return Verdict.OUTSIDE_WINDOW;
        }
        long nowSeconds = now.getEpochSecond();
        long iat = claim.path("iat").asLong();
        if (Math.abs(nowSeconds - iat) > tolerance.toSeconds()) {
            return Verdict.OUTSIDE_WINDOW;
        }
        if (claim.path("exp").isNumber() && claim.path("exp").asLong() < nowSeconds) {
            return Verdict.OUTSIDE_WINDOW;
        }
        if (claim.path("nbf").isNumber() && claim.path("nbf").asLong() > nowSeconds + tolerance.toSeconds()) {
            return Verdict.OUTSIDE_WINDOW;
        }
        String payloadHash = claim.path("payload_hash").asText("");
        if (body != null && body.length > 0 || !payloadHash.isEmpty()) {
            String actual = HexFormat.of().formatHex(sha256(body == null ? new byte[0] : body));
            if (!MessageDigest.isEqual(actual.getBytes(StandardCharsets.US_ASCII),
                    payloadHash.toLowerCase().getBytes(StandardCharsets.US_ASCII))) {
                return Verdict.PAYLOAD_MISMATCH;
            }
        }
        return Verdict.VALID;
    }

    /** The token of an {@code Authorization: Bearer <token>} header, or null. */
    public static String bearer(String header) {
        if (header == null) {
            return null;
        }
        String value = header.strip();
        if (value.length() <= 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return value.substring(7).strip();
    }

    private static String[] split(String token) {
        if (token == null || token.length() > 8192) {
            return null;
        }
        String[] parts = token.split("\\.", -1);
        return parts.length == 3 && !parts[0].isEmpty() && !parts[1].isEmpty() && !parts[2].isEmpty() ? parts : null;
    }

    private static Optional<JsonNode> decodeJson(String part) {
        try {
            JsonNode node = JSON.readTree(BASE64URL.decode(part));
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static byte[] hmacSha256(String secret, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
