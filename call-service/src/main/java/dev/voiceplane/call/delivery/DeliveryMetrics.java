package dev.voiceplane.call.delivery;

import dev.voiceplane.call.repository.DeliveryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Delivery metrics for alerting (Prometheus at /q/metrics): {@code voice_webhook_deliveries_total{outcome}}
 * (messages finished: delivered, dead, skipped), {@code voice_webhook_attempts_total{outcome}} (delivered,
 * retryable, failed), {@code voice_webhook_failures_total}, {@code voice_webhook_dead_letters_total},
 * {@code voice_webhook_attempt_seconds}, and from the table (read at most every {@value #QUEUE_READ_SECONDS} s per
 * scrape) {@code voice_webhook_queue_depth} (undelivered), {@code voice_webhook_queue_due} and
 * {@code voice_webhook_oldest_due_age_seconds}.
 */
@ApplicationScoped
public class DeliveryMetrics {

    static final int QUEUE_READ_SECONDS = 5;

    private final MeterRegistry registry;
    private final DeliveryStore store;
    private final Counter failures;
    private final Counter deadLetters;
    private final Timer attemptTime;
    private final AtomicReference<Snapshot> queue = new AtomicReference<>();
    /** The counters per outcome, looked up once (not per message). */
    private final Map<WebhookSender.Kind, Counter> attempts = new EnumMap<>(WebhookSender.Kind.class);
    private final Map<String, Counter> deliveries = new ConcurrentHashMap<>();

    private record Snapshot(DeliveryStore.Queue queue, long readAtNanos) {
    }

    public DeliveryMetrics(MeterRegistry registry, DeliveryStore store) {
        this.registry = registry;
        this.store = store;
        this.failures = registry.counter("voice.webhook.failures");
        this.deadLetters = registry.counter("voice.webhook.dead.letters");
        this.attemptTime = Timer.builder("voice.webhook.attempt").register(registry);
        for (WebhookSender.Kind kind : WebhookSender.Kind.values()) {
            attempts.put(kind, registry.counter("voice.webhook.attempts", "outcome",
                    kind.name().toLowerCase(java.util.Locale.ROOT)));
        }
        Gauge.builder("voice.webhook.queue.depth", this, m -> m.queue().undelivered()).register(registry);
        Gauge.builder("voice.webhook.queue.due", this, m -> m.queue().due()).register(registry);
        Gauge.builder("voice.webhook.oldest.due.age.seconds", this, m -> m.queue().oldestDueAge().toMillis() / 1000.0)
                .register(registry);
    }

    void attempt(WebhookSender.Kind kind, long latencyMillis) {
        attempts.get(kind).increment();
        attemptTime.record(Duration.ofMillis(latencyMillis));
        if (kind != WebhookSender.Kind.DELIVERED) {
            failures.increment();
        }
    }

    void finished(String status) {
        deliveries.computeIfAbsent(status, s -> registry.counter("voice.webhook.deliveries", "outcome", s)).increment();
        if ("dead".equals(status)) {
            deadLetters.increment();
        }
    }

    private DeliveryStore.Queue queue() {
        Snapshot snapshot = queue.get();
        if (snapshot == null || System.nanoTime() - snapshot.readAtNanos() > QUEUE_READ_SECONDS * 1_000_000_000L) {
            snapshot = new Snapshot(store.queue(), System.nanoTime());
            queue.set(snapshot);
        }
        return snapshot.queue();
    }
}
