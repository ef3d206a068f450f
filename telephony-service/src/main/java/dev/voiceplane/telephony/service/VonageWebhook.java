package dev.voiceplane.telephony.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.credential.CredentialSecret;
import dev.voiceplane.telephony.domain.PhoneNumber;
import java.util.Optional;

/**
 * A Vonage webhook as {@link VonageWebhooks#verify} checked it: the route, the body's JSON object (its hash was
 * signed), the number the token and the body selected, and that number's vonage credential as credential-service
 * answered it (whose signature secret verified the token; its API key and secret release an inline dial's
 * application). Both are empty only for an answer webhook to a number not imported here, which is answered with a
 * spoken refusal.
 */
public record VonageWebhook(String route, JsonNode payload, Optional<PhoneNumber> number,
        Optional<CredentialSecret> credential) {
}
