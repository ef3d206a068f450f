package dev.voiceplane.credential.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.contracts.credential.CredentialSecret;
import org.junit.jupiter.api.Test;

/** Printing a request or a secret (a log line, an exception message) never shows a secret value. */
class SecretRedactionTest {

    @Test
    void requestsAndSecretsPrintWithoutTheirValues() {
        String request = new CredentialRequest("vonage", "line", "key-123", "secret-456", null, null, "sig-000").toString();
        assertFalse(request.contains("key-123"), request);
        assertFalse(request.contains("sig-000"), request);
        assertFalse(request.contains("secret-456"), request);
        assertTrue(request.contains("vonage"), request);

        String secret = new CredentialSecret("id-1", "twilio", "AC1", null, null, "token-789", null).toString();
        assertFalse(secret.contains("token-789"), secret);
        assertTrue(secret.contains("AC1"), secret);
    }
}
