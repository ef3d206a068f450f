package dev.voiceplane.telephony.carrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.twilio.security.RequestValidator;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * X-Twilio-Signature: Twilio's published vectors (its SDKs' RequestValidator tests, auth token 12345), altered ones,
 * and Twilio's own Java validator (13.0.1, test scope only) as an oracle for what we compute.
 */
class TwilioSignatureTest {

    static final String TOKEN = "12345";
    static final String URL = "https://mycompany.com/myapp.php?foo=1&bar=2";

    static Map<String, List<String>> documented() {
        Map<String, List<String>> params = new LinkedHashMap<>();
        // Deliberately not in sorted order: the signature sorts them.
        params.put("From", List.of("+14158675309"));
        params.put("CallSid", List.of("CA1234567890ABCDE"));
        params.put("To", List.of("+18005551212"));
        params.put("Digits", List.of("1234"));
        params.put("Caller", List.of("+14158675309"));
        return params;
    }

    @Test
    void thePublishedVectorsVerify() {
        assertEquals("RSOYDt4T1cUTdK1PDd93/VVr8B8=", TwilioSignature.compute(TOKEN, URL, documented()));
        assertTrue(TwilioSignature.isValid(TOKEN, URL, documented(), "RSOYDt4T1cUTdK1PDd93/VVr8B8="));
        // The URL as configured, mixed case and all.
        assertTrue(TwilioSignature.isValid(TOKEN, "https://MyCompany.com/myapp.php?foo=1&bar=2", documented(),
                "g9IN/x4Cft2g517EjYvEvM/W7LU="));
    }

    @Test
    void anAlteredRequestDoesNotVerify() {
        String signature = "RSOYDt4T1cUTdK1PDd93/VVr8B8=";
        Map<String, List<String>> tampered = documented();
        tampered.put("Digits", List.of("9999"));
        assertFalse(TwilioSignature.isValid(TOKEN, URL, tampered, signature));
        Map<String, List<String>> added = documented();
        added.put("CallStatus", List.of("ringing"));
        assertFalse(TwilioSignature.isValid(TOKEN, URL, added, signature));
        assertFalse(TwilioSignature.isValid(TOKEN, URL + "&extra=1", documented(), signature));
        assertFalse(TwilioSignature.isValid(TOKEN, "http://mycompany.com/myapp.php?foo=1&bar=2", documented(), signature));
        assertFalse(TwilioSignature.isValid("54321", URL, documented(), signature));
        assertFalse(TwilioSignature.isValid(TOKEN, URL, documented(), "RSOYDt4T1cUTdK1PDd93/VVr8B8"));
        assertFalse(TwilioSignature.isValid(TOKEN, URL, documented(), ""));
        assertFalse(TwilioSignature.isValid(TOKEN, URL, documented(), null));
        assertFalse(TwilioSignature.isValid("", URL, documented(), signature));
    }

    @Test
    void theUrlIsAcceptedWithOrWithoutTheDefaultPortAsTwiliosValidatorDoes() {
        String signedWithPort = TwilioSignature.compute(TOKEN, "https://mycompany.com:443/myapp.php?foo=1&bar=2", documented());
        assertTrue(TwilioSignature.isValid(TOKEN, URL, documented(), signedWithPort));
        String signedWithout = TwilioSignature.compute(TOKEN, URL, documented());
        assertTrue(TwilioSignature.isValid(TOKEN, "https://mycompany.com:443/myapp.php?foo=1&bar=2", documented(), signedWithout));
        // Another port is another URL.
        assertFalse(TwilioSignature.isValid(TOKEN, "https://mycompany.com:8443/myapp.php?foo=1&bar=2", documented(), signedWithout));
    }

    @Test
    void twiliosOwnValidatorAcceptsWhatWeComputeAndWeAcceptWhatItAccepts() {
        RequestValidator oracle = new RequestValidator("a-real-looking-token-" + "0123456789abcdef");
        String url = "https://voice.example.com/twilio/status?callId=c%201";
        Map<String, List<String>> params = new LinkedHashMap<>(documented());
        params.put("CallStatus", List.of("in-progress"));
        params.put("Timestamp", List.of("Tue, 10 Sep 2024 12:00:00 +0000"));
        params.put("Note", List.of("spaces & symbols: é ✓ <tag> \"quoted\""));
        String ours = TwilioSignature.compute("a-real-looking-token-0123456789abcdef", url, params);
        Map<String, String> single = params.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().getFirst()));
        assertTrue(oracle.validate(url, single, ours));
        assertFalse(oracle.validate(url + "x", single, ours));
    }

    @Test
    void aFormBodyIsDecodedOnceAsTwilioSignsIt() {
        byte[] body = "To=%2B18005551212&From=%2B14158675309&Caller=%2B14158675309&CallSid=CA1234567890ABCDE&Digits=1234"
                .getBytes(StandardCharsets.UTF_8);
        assertTrue(TwilioSignature.isValid(TOKEN, URL, FormBody.parse(body), "RSOYDt4T1cUTdK1PDd93/VVr8B8="));
        assertEquals(List.of("a b+c"), FormBody.parse("x=a+b%2Bc".getBytes(StandardCharsets.UTF_8)).get("x"));
    }

    static final String JSON_BODY = "{\"property\": \"value\", \"boolean\": true}";
    static final String JSON_HASH = "0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620";

    @Test
    void aJsonBodyIsSignedThroughItsHashInTheUrlAsInTwiliosPublishedVector() throws Exception {
        String url = URL + "&bodySHA256=" + JSON_HASH;
        byte[] body = JSON_BODY.getBytes(StandardCharsets.UTF_8);
        assertTrue(TwilioSignature.isValidWithBody(TOKEN, url, body, "a9nBmqA0ju/hNViExpshrM61xv4="));
        assertEquals("a9nBmqA0ju/hNViExpshrM61xv4=", TwilioSignature.compute(TOKEN, url, Map.of()));
        // Twilio's own validator agrees on the same vector.
        assertTrue(new RequestValidator(TOKEN).validate(url, JSON_BODY, "a9nBmqA0ju/hNViExpshrM61xv4="));
    }

    @Test
    void aJsonBodyAlteredAfterSigningOrAHashThatWasNotSignedDoesNotVerify() {
        String url = URL + "&bodySHA256=" + JSON_HASH;
        String signature = "a9nBmqA0ju/hNViExpshrM61xv4=";
        byte[] altered = "{\"property\": \"other\", \"boolean\": true}".getBytes(StandardCharsets.UTF_8);
        assertFalse(TwilioSignature.isValidWithBody(TOKEN, url, altered, signature));
        // The hash replaced by the altered body's: the URL is no longer the one signed.
        String rehashed = URL + "&bodySHA256=" + java.util.HexFormat.of().formatHex(sha256(altered));
        assertFalse(TwilioSignature.isValidWithBody(TOKEN, rehashed, altered, signature));
        assertFalse(TwilioSignature.isValidWithBody(TOKEN, URL, JSON_BODY.getBytes(StandardCharsets.UTF_8), signature),
                "no bodySHA256 in the URL: not a JSON-signed request");
        assertFalse(TwilioSignature.isValidWithBody("54321", url, JSON_BODY.getBytes(StandardCharsets.UTF_8), signature));
        // Upper-case hex is the same hash.
        assertTrue(TwilioSignature.isValidWithBody(TOKEN, URL + "&bodySHA256=" + JSON_HASH.toUpperCase(),
                JSON_BODY.getBytes(StandardCharsets.UTF_8),
                TwilioSignature.compute(TOKEN, URL + "&bodySHA256=" + JSON_HASH.toUpperCase(), Map.of())));
    }

    @Test
    void twiliosOwnValidatorAcceptsAJsonRequestWeAccept() throws Exception {
        String token = "a-real-looking-token-0123456789abcdef";
        byte[] body = "{\"CallSid\":\"CA1\",\"CallStatus\":\"completed\",\"Note\":\"é ✓\"}".getBytes(StandardCharsets.UTF_8);
        String url = "https://voice.example.com/twilio/status?callId=c1&bodySHA256="
                + java.util.HexFormat.of().formatHex(sha256(body));
        String signature = TwilioSignature.compute(token, url, Map.of());
        assertTrue(TwilioSignature.isValidWithBody(token, url, body, signature));
        assertTrue(new RequestValidator(token).validate(url, new String(body, StandardCharsets.UTF_8), signature));
    }

    static byte[] sha256(byte[] data) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
