package dev.voiceplane.call.delivery;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.call.repository.DeliveryStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * The delivery machinery of this replica: the SSRF guard and the HTTP sender every customer-URL call uses (the
 * queued server messages and the synchronous {@code assistant-request}), and the replica's {@link DeliveryWorker},
 * started with the application unless {@code voice.webhook.worker-enabled=false} (tests start their own).
 */
@ApplicationScoped
public class Deliveries {

    private static final Logger LOG = Logger.getLogger(Deliveries.class);

    private final DeliveryConfig config;
    private final DeliveryStore store;
    private final Targets targets;
    private final SigningSecrets secrets;
    private final DeliveryMetrics metrics;
    private final ObjectMapper json;
    private final Vertx vertx;
    private final AddressGuard guard;
    private volatile WebhookSender sender;
    private DeliveryWorker worker;

    public Deliveries(DeliveryConfig config, DeliveryStore store, Targets targets, SigningSecrets secrets,
            DeliveryMetrics metrics, ObjectMapper json, Vertx vertx) {
        this.config = config;
        this.store = store;
        this.targets = targets;
        this.secrets = secrets;
        this.metrics = metrics;
        this.json = json;
        this.vertx = vertx;
        this.guard = new AddressGuard(config.allowPrivate());
    }

    void start(@Observes StartupEvent started) {
        if (config.allowPrivate()) {
            LOG.warn("VOICE_WEBHOOK_ALLOW_PRIVATE=true: server messages and assistant-requests may go to loopback and"
                    + " private addresses (fine for self-hosting; never on a shared deployment)");
        }
        if (config.workerEnabled()) {
            worker = newWorker("replica", config);
            worker.start();
        }
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (worker != null) {
            // Within the shutdown timeout; what is still in flight then is sent again by another replica after
            // the lease (at least once).
            worker.stop(Duration.ofSeconds(5));
        }
    }

    /** A worker with its own sending pool (the replica's, or one of several in a test). */
    public DeliveryWorker newWorker(String name, DeliveryConfig settings) {
        return new DeliveryWorker(name, store, targets, secrets,
                new WebhookSender(vertx, new AddressGuard(settings.allowPrivate()), settings.concurrency(),
                        settings.maxResponseBytes()),
                metrics, json, settings);
    }

    /** The sender for one-off requests (assistant-request), sharing the guard's rule. */
    public WebhookSender sender() {
        WebhookSender current = sender;
        if (current == null) {
            synchronized (this) {
                if (sender == null) {
                    // An assistant-request is answered with a whole assistant: up to 1 MiB of it is read.
                    sender = new WebhookSender(vertx, guard, config.concurrency(),
                            Math.max(config.maxResponseBytes(), 1 << 20));
                }
                current = sender;
            }
        }
        return current;
    }

    public SigningSecrets secrets() {
        return secrets;
    }

    public DeliveryConfig config() {
        return config;
    }

}
