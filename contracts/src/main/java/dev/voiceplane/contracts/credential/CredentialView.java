package dev.voiceplane.contracts.credential;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;

/**
 * A credential as clients (and other services, on the internal routes) see it: never a secret field. Besides the
 * provider and name, the fields of its kind that are not secrets, as written: twilio's {@code accountSid}; azure's
 * {@code region} and {@code service}; azure-openai's {@code region}, {@code models} and {@code openAIEndpoint};
 * deepgram's {@code apiUrl}; playht's {@code userId}; minimax's {@code groupId} (absent when not written).
 */
@RegisterForReflection
public record CredentialView(
        String id,
        String orgId,
        String provider,
        String name,
        String accountSid,
        String region,
        String service,
        String openAIEndpoint,
        List<String> models,
        String apiUrl,
        String userId,
        String groupId,
        Instant createdAt,
        Instant updatedAt) {
}
