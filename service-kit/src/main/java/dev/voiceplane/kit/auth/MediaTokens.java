package dev.voiceplane.kit.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Per-call media capabilities: what the control plane hands a carrier stream (a Twilio {@code <Parameter>}, a
 * Vonage websocket header) or a web-call client (the {@code webCallUrl}'s {@code token}) so that the voice runtime
 * accepts that call's media and nothing else. A token names one call of one organisation and an expiry, sealed with
 * HMAC-SHA256 (256 bits) under {@code VOICE_MEDIA_TOKEN_KEY}, which the issuing services and the runtime share;
 * the runtime checks it before it contacts anything, and call-service lets a call be attached once.
 * Format: {@code v1.<callId>.<orgId, base64url>.<expiry, epoch seconds>.<mac, base64url>}.
 */
public final class MediaTokens {

    /** Why a token was refused; the runtime logs it and closes the socket. */
    public static final class Refused extends Exception {
        public Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What a valid token grants. */
    public record Grant(UUID callId, String orgId, Instant expiresAt) {
    }

    private static final String VERSION = "v1";
    private static final int MIN_KEY_BYTES = 32;
    /** {@code Instant.MAX} is 31556889864403199 seconds: 17 digits. */
    private static final int MAX_EXPIRY_DIGITS = 17;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;

    public MediaTokens(String key) {
        byte[] bytes = key == null ? new byte[0] : key.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("VOICE_MEDIA_TOKEN_KEY must be at least " + MIN_KEY_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(bytes, "HmacSHA256");
    }

    public String issue(String orgId, UUID callId, Instant expiresAt) {
        String body = VERSION + "." + callId + "." + ENCODER.encodeToString(orgId.getBytes(StandardCharsets.UTF_8))
                + "." + expiresAt.getEpochSecond();
        return body + "." + ENCODER.encodeToString(mac(body));
    }

    /** The grant of a token that is well formed, sealed with the key and not expired at {@code now}. */
    public Grant verify(String token, Instant now) throws Refused {
        if (token == null || token.isEmpty()) {
            throw new Refused("no media token");
        }
        if (token.length() > 512) {
            throw new Refused("media token too long");
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 5 || !VERSION.equals(parts[0])) {
            throw new Refused("malformed media token");
        }
        String body = String.join(".", parts[0], parts[1], parts[2], parts[3]);
        byte[] presented;
        try {
            presented = DECODER.decode(parts[4]);
        } catch (IllegalArgumentException e) {
            throw new Refused("malformed media token");
        }
        if (!MessageDigest.isEqual(presented, mac(body))) {
            throw new Refused("media token signature does not match");
        }
        UUID callId;
        String orgId;
        try {
            callId = UUID.fromString(parts[1]);
            orgId = new String(DECODER.decode(parts[2]), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new Refused("malformed media token");
        }
        Instant expiresAt = expiry(parts[3]);
        if (!now.isBefore(expiresAt)) {
            throw new Refused("media token expired at " + expiresAt);
        }
        return new Grant(callId, orgId, expiresAt);
    }

    /**
     * The expiry as issued: epoch seconds in decimal digits, within what an {@link Instant} holds. Anything else (a
     * sign, {@code Long.MAX_VALUE} or {@code Long.MIN_VALUE}, even correctly sealed) cannot have been issued and
     * is refused like any malformed token, never an exception of another kind.
     */
    private static Instant expiry(String seconds) throws Refused {
        if (seconds.isEmpty() || seconds.length() > MAX_EXPIRY_DIGITS
                || !seconds.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new Refused("malformed media token (its expiry is not a time)");
        }
        long value = Long.parseLong(seconds);
        if (value > Instant.MAX.getEpochSecond()) {
            throw new Refused("malformed media token (its expiry is not a time)");
        }
        return Instant.ofEpochSecond(value);
    }

    private byte[] mac(String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}
