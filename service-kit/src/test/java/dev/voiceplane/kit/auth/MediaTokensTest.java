package dev.voiceplane.kit.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MediaTokensTest {

    private static final String KEY = "a-media-token-key-of-at-least-32-bytes";
    private final MediaTokens tokens = new MediaTokens(KEY);
    private final UUID call = UUID.fromString("0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d");

    @Test
    void aTokenGrantsItsCallAndOrganisationUntilItExpires() throws Exception {
        Instant expiry = Instant.now().plusSeconds(60);
        String token = tokens.issue("org-a", call, expiry);
        MediaTokens.Grant grant = tokens.verify(token, Instant.now());
        assertEquals(call, grant.callId());
        assertEquals("org-a", grant.orgId());
        assertEquals(expiry.getEpochSecond(), grant.expiresAt().getEpochSecond());
        MediaTokens.Refused expired = assertThrows(MediaTokens.Refused.class, () -> tokens.verify(token, expiry));
        assertTrue(expired.getMessage().contains("expired"), expired.getMessage());
    }

    @Test
    void aForgedOrAlteredTokenIsRefused() {
        String token = tokens.issue("org-a", call, Instant.now().plusSeconds(60));
        String otherCall = token.replace(call.toString(), UUID.randomUUID().toString());
        String otherKey = new MediaTokens(KEY + "!").issue("org-a", call, Instant.now().plusSeconds(60));
        String longer = token.replaceFirst("\\.(\\d+)\\.", ".9$1.");
        for (String forged : new String[] {otherCall, otherKey, longer}) {
            MediaTokens.Refused refused = assertThrows(MediaTokens.Refused.class, () -> tokens.verify(forged, Instant.now()));
            assertEquals("media token signature does not match", refused.getMessage());
        }
        for (String malformed : new String[] {"", "v1", "v2.a.b.c.d", token + ".x", "v1.not-a-uuid.b3JnLWE.1.AAAA",
                "x".repeat(600)}) {
            assertThrows(MediaTokens.Refused.class, () -> tokens.verify(malformed, Instant.now()), malformed);
        }
        assertThrows(MediaTokens.Refused.class, () -> tokens.verify(null, Instant.now()));
    }

    /** A token sealed with the key over a body written by hand, as only a holder of the key could make one. */
    private static String sealed(String expiry) throws Exception {
        String body = "v1.0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d.b3JnLWE." + expiry;
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(KEY.getBytes(java.nio.charset.StandardCharsets.UTF_8), "HmacSHA256"));
        return body + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void aSealedTokenWhoseExpiryIsNoTimeIsRefusedAsMalformed() throws Exception {
        // Issue 45: Long.MAX_VALUE and Long.MIN_VALUE, correctly sealed, threw DateTimeException (a 500 on the web
        // upgrade, a stream left open until its start timeout) instead of being refused.
        for (String expiry : new String[] {Long.toString(Long.MAX_VALUE), Long.toString(Long.MIN_VALUE),
                Long.toString(Instant.MAX.getEpochSecond() + 1), "-1", "+4102444800", "", " 4102444800",
                "99999999999999999999999", "1e10", "４１０２４４４８００"}) {
            String token = sealed(expiry);
            MediaTokens.Refused refused = assertThrows(MediaTokens.Refused.class,
                    () -> tokens.verify(token, Instant.now()), expiry);
            assertEquals("malformed media token (its expiry is not a time)", refused.getMessage(), expiry);
        }
        // The furthest expiry an Instant holds is a time: such a token is valid (its call is checked elsewhere).
        assertEquals(Instant.MAX.getEpochSecond(), tokens.verify(sealed(Long.toString(Instant.MAX.getEpochSecond())),
                Instant.now()).expiresAt().getEpochSecond());
        assertEquals(call, tokens.verify(sealed("4102444800"), Instant.now()).callId());
    }

    @Test
    void aShortKeyIsRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> new MediaTokens("short"));
    }
}
