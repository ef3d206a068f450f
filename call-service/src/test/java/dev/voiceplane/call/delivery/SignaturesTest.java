package dev.voiceplane.call.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The test vector of docs/webhooks.md, and signatures during a rotation's overlap. */
class SignaturesTest {

    // docs/webhooks.md "Verifying a message": the Standard Webhooks specification's own example; the expected value
    // was computed independently with `openssl dgst -sha256 -mac HMAC` over "id.timestamp.body".
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    static final long TIMESTAMP = 1614265330;
    static final String BODY = "{\"test\": 2432232314}";
    static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void theDocumentedTestVector() {
        assertEquals(SIGNATURE, Signatures.sign(List.of(SECRET), ID, TIMESTAMP, BODY));
    }

    @Test
    void duringAnOverlapBothSecretsSignAndEitherVerifies() throws Exception {
        String newer = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'B');
        long now = Instant.now().getEpochSecond();
        String header = Signatures.sign(List.of(newer, SECRET), "msg_1", now, BODY);
        assertEquals(2, header.split(" ").length);
        Map<String, List<String>> headers = Map.of("webhook-id", List.of("msg_1"),
                "webhook-timestamp", List.of(Long.toString(now)), "webhook-signature", List.of(header));
        new Webhook(newer).verify(BODY, headers);
        new Webhook(SECRET).verify(BODY, headers);
        String unrelated = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[24]);
        assertThrows(WebhookVerificationException.class, () -> new Webhook(unrelated).verify(BODY, headers));
        // A changed body does not verify.
        assertThrows(WebhookVerificationException.class, () -> new Webhook(SECRET).verify(BODY + " ", headers));
    }
}
