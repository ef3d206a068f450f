package dev.voiceplane.telephony.carrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.vonage.jwt.Jwt;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Vonage signed webhooks: tokens made with an independent JWT library (auth0 java-jwt, what Vonage's own
 * {@code com.vonage:jwt} uses; test scope only), checked by Vonage's verifier and by ours, and altered ones.
 */
class VonageSignatureTest {

    static final String SECRET = "signature-secret-of-at-least-32-bytes!!";
    static final Duration WINDOW = Duration.ofMinutes(5);
    static final byte[] BODY = "{\"to\":\"447700900000\",\"from\":\"447700900001\",\"uuid\":\"u-1\"}"
            .getBytes(StandardCharsets.UTF_8);

    static String token(String secret, Instant issued, byte[] body) {
        return JWT.create().withIssuedAt(Date.from(issued)).withJWTId("jti-" + issued.toEpochMilli())
                .withClaim("iss", "Vonage").withClaim("api_key", "abcd1234").withClaim("application_id", "app-1")
                .withClaim("payload_hash", HexFormat.of().formatHex(VonageSignature.sha256(body)))
                .sign(Algorithm.HMAC256(secret));
    }

    @Test
    void aTokenVonagesVerifierAcceptsIsAcceptedHere() {
        Instant now = Instant.now();
        String token = token(SECRET, now, BODY);
        assertTrue(Jwt.verifySignature(token, SECRET));
        assertEquals(VonageSignature.Verdict.VALID, VonageSignature.verify(token, SECRET, BODY, now, WINDOW));
        assertEquals("abcd1234", VonageSignature.unverifiedClaims(token).orElseThrow().path("api_key").asText());
    }

    @Test
    void alteredTokensAndBodiesAreRefused() {
        Instant now = Instant.now();
        String token = token(SECRET, now, BODY);
        assertEquals(VonageSignature.Verdict.BAD_SIGNATURE,
                VonageSignature.verify(token, "another-secret-of-enough-length-xxxx", BODY, now, WINDOW));
        byte[] tampered = "{\"to\":\"447700900009\",\"from\":\"447700900001\",\"uuid\":\"u-1\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(VonageSignature.Verdict.PAYLOAD_MISMATCH, VonageSignature.verify(token, SECRET, tampered, now, WINDOW));
        // Claims swapped under the same signature.
        String[] parts = token.split("\\.");
        String forgedClaims = Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"iat\":" + now.getEpochSecond() + ",\"api_key\":\"other\"}").getBytes(StandardCharsets.UTF_8));
        assertEquals(VonageSignature.Verdict.BAD_SIGNATURE,
                VonageSignature.verify(parts[0] + "." + forgedClaims + "." + parts[2], SECRET, BODY, now, WINDOW));
        // alg none, and garbage.
        String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals(VonageSignature.Verdict.WRONG_ALGORITHM,
                VonageSignature.verify(none + "." + parts[1] + "." + parts[2], SECRET, BODY, now, WINDOW));
        assertEquals(VonageSignature.Verdict.MALFORMED, VonageSignature.verify("not-a-jwt", SECRET, BODY, now, WINDOW));
        assertEquals(VonageSignature.Verdict.MALFORMED, VonageSignature.verify(parts[0] + "." + parts[1] + ".", SECRET, BODY, now, WINDOW));
    }

    @Test
    void aReplayOutsideTheWindowIsRefused() {
        Instant issued = Instant.now().minus(Duration.ofMinutes(6));
        String token = token(SECRET, issued, BODY);
        assertTrue(Jwt.verifySignature(token, SECRET), "the signature itself is fine");
        assertEquals(VonageSignature.Verdict.OUTSIDE_WINDOW, VonageSignature.verify(token, SECRET, BODY, Instant.now(), WINDOW));
        assertEquals(VonageSignature.Verdict.VALID,
                VonageSignature.verify(token, SECRET, BODY, issued.plusSeconds(60), WINDOW));
    }
}
