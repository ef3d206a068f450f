package dev.voiceplane.call.delivery;

import dev.voiceplane.call.api.DeliveryView;
import dev.voiceplane.call.api.WebhookSecretView;
import dev.voiceplane.call.repository.DeliveryStore;
import dev.voiceplane.kit.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** What a customer sees of deliveries: a call's delivery log, redelivery of a dead letter, the signing secret. */
@ApplicationScoped
public class DeliveryLog {

    private final DeliveryStore store;
    private final SigningSecrets secrets;
    private final DeliveryConfig config;

    public DeliveryLog(DeliveryStore store, SigningSecrets secrets, DeliveryConfig config) {
        this.store = store;
        this.secrets = secrets;
        this.config = config;
    }

    public List<DeliveryView> ofCall(String orgId, UUID callId) {
        if (!store.hasCall(orgId, callId)) {
            throw ApiException.notFound("Call");
        }
        return store.ofCall(orgId, callId).stream().map(DeliveryLog::view).toList();
    }

    /** A dead-lettered message goes back to the queue with a fresh retry schedule. */
    public DeliveryView redeliver(String orgId, UUID messageId) {
        DeliveryStore.Message message = store.message(orgId, messageId)
                .orElseThrow(() -> ApiException.notFound("Delivery"));
        if (!store.redeliver(orgId, messageId)) {
            throw ApiException.conflict("only a dead-lettered message can be redelivered; this one is "
                    + message.status());
        }
        return view(store.message(orgId, messageId).orElseThrow(() -> ApiException.notFound("Delivery")));
    }

    public WebhookSecretView secret(String orgId) {
        return secretView(secrets.current(orgId));
    }

    public WebhookSecretView rotate(String orgId, Integer overlapSeconds) {
        Duration overlap = overlapSeconds == null ? config.secretOverlap() : Duration.ofSeconds(overlapSeconds);
        if (overlap.compareTo(config.maxSecretOverlap()) > 0) {
            overlap = config.maxSecretOverlap();
        }
        return secretView(secrets.rotate(orgId, overlap));
    }

    private static WebhookSecretView secretView(List<SigningSecrets.Secret> all) {
        SigningSecrets.Secret current = all.get(0);
        return new WebhookSecretView(current.secret(), current.createdAt(), all.subList(1, all.size()).stream()
                .map(s -> new WebhookSecretView.Previous(s.secret(), s.createdAt(), s.expiresAt())).toList());
    }

    private static DeliveryView view(DeliveryStore.Message m) {
        return new DeliveryView(m.id().toString(), m.callId().toString(), m.seq(), m.type(), m.status(), m.attempts(),
                m.createdAt(), m.status().equals("pending") ? m.nextAttemptAt() : null, m.deliveredAt(),
                m.lastStatusCode(), m.lastError(), m.log().stream().map(a -> new DeliveryView.Attempt(a.attempt(),
                        a.at(), a.url(), a.statusCode(), a.latencyMillis(), a.outcome(), a.error())).toList());
    }
}
