package dev.voiceplane.credential.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.contracts.credential.CredentialView;
import dev.voiceplane.contracts.credential.ProviderCredential;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Printing a request or a secret (a log line, an exception message) never shows a secret value. */
class SecretRedactionTest {

    @Test
    void requestsAndSecretsPrintWithoutTheirValues() {
        String request = new CredentialRequest("vonage", "line", "key-123", "secret-456", null, null, "sig-000",
                null, null, null, null, null, null, null, null, null).toString();
        assertFalse(request.contains("key-123"), request);
        assertFalse(request.contains("sig-000"), request);
        assertFalse(request.contains("secret-456"), request);
        assertTrue(request.contains("vonage"), request);

        String azure = new CredentialRequest("azure-openai", "east", null, null, null, null, null, "eastus", null,
                "oai-key-111", "apim-222", "https://east.openai.azure.com", List.of("gpt-4o"), null, null, null)
                .toString();
        assertFalse(azure.contains("oai-key-111"), azure);
        assertFalse(azure.contains("apim-222"), azure);
        assertTrue(azure.contains("azure-openai"), azure);

        CredentialSecret opened = new CredentialSecret("id-1", "twilio", "AC1", "key-333", null, "token-789", null,
                "apim-444");
        String secret = opened.toString();
        assertFalse(secret.contains("token-789"), secret);
        assertFalse(secret.contains("key-333"), secret);
        assertFalse(secret.contains("apim-444"), secret);
        assertTrue(secret.contains("AC1"), secret);

        String credential = new ProviderCredential(new CredentialView("id-1", "org-a", "azure", null, null, "eastus",
                null, null, null, null, null, null, null, null), opened).toString();
        assertFalse(credential.contains("key-333"), credential);
        assertFalse(credential.contains("apim-444"), credential);
        assertTrue(credential.contains("eastus"), credential);
    }
}
