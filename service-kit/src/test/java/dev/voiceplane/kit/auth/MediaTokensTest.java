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

    @Test
    void aShortKeyIsRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> new MediaTokens("short"));
    }
}
