package dev.voiceplane.call.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One replica's delivery loop: claims due messages (as many as it has free sending slots), sends each on a
 * virtual thread, records the attempt and the message's next state. When a claim comes back full it claims again
 * at once; when nothing is due it sleeps {@code pollInterval}. Every replica runs one, and they share the work
 * through the table ({@code FOR UPDATE SKIP LOCKED}); a replica that dies leaves claims that expire with their lease.
 *
 * <p>An own loop rather than quarkus-scheduler: a busy queue is drained back to back instead of once per tick, the
 * bounded pool is part of the loop (claims never outrun the slots, so no claim waits out its lease in a queue), and
 * tests run several independent workers in one JVM and stop one mid-batch.
 */
public final class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger(DeliveryWorker.class);

    private final String name;
    private final DeliveryStore store;
    private final Targets targets;
    private final SigningSecrets secrets;
    private final WebhookSender sender;
    private final DeliveryMetrics metrics;
    private final ObjectMapper json;
    private final RetrySchedule schedule;
    private final DeliveryConfig config;
    private final Semaphore slots;
    private final ExecutorService sending = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("webhook-send-", 0).factory());
    private volatile boolean running;
    private Thread loop;

    public DeliveryWorker(String name, DeliveryStore store, Targets targets, SigningSecrets secrets,
            WebhookSender sender, DeliveryMetrics metrics, ObjectMapper json, DeliveryConfig config) {
        this.name = name;
        this.store = store;
        this.targets = targets;
        this.secrets = secrets;
        this.sender = sender;
        this.metrics = metrics;
        this.json = json;
        this.schedule = RetrySchedule.of(config);
        this.config = config;
        this.slots = new Semaphore(Math.max(1, config.concurrency()));
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        loop = Thread.ofVirtual().name("webhook-worker-" + name).start(this::run);
    }

    /** Stops claiming and waits up to {@code drain} for the messages in flight. */
    public void stop(Duration drain) {
        running = false;
        Thread current = loop;
        if (current != null) {
            current.interrupt();
        }
        sending.shutdown();
        try {
            if (!sending.awaitTermination(drain.toMillis(), TimeUnit.MILLISECONDS)) {
                sending.shutdownNow();
            }
        } catch (InterruptedException e) {
            sending.shutdownNow();
            Thread.currentThread().interrupt();
        }
        sender.close();
    }

    /** As a killed replica: stops at once, abandoning what is in flight unrecorded (its claims expire). */
    public void kill() {
        running = false;
        Thread current = loop;
        if (current != null) {
            current.interrupt();
        }
        sending.shutdownNow();
        sender.close();
    }

    private void run() {
        while (running) {
            try {
                int claimed = claimAndSend();
                if (claimed == 0) {
                    Thread.sleep(config.pollInterval().toMillis());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warnf("delivery worker %s: %s", name, e.toString());
                try {
                    Thread.sleep(config.pollInterval().toMillis());
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** One round: waits for a free slot, claims up to the free slots, hands each message to a sending thread. */
    int claimAndSend() throws InterruptedException {
        slots.acquire();
        int free = 1 + slots.drainPermits();
        List<DeliveryStore.Claimed> batch;
        try {
            batch = store.claim(Math.min(free, config.batchSize()), config.lease());
        } catch (RuntimeException e) {
            slots.release(free);
            throw e;
        }
        slots.release(free - batch.size());
        for (DeliveryStore.Claimed message : batch) {
            try {
                sending.execute(() -> {
                    try {
                        deliver(message);
                    } catch (RuntimeException e) {
                        LOG.warnf("delivery of message %s failed: %s", message.id(), e.toString());
                    } finally {
                        slots.release();
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                slots.release();
            }
        }
        return batch.size() < Math.min(free, config.batchSize()) ? 0 : batch.size();
    }

    private void deliver(DeliveryStore.Claimed message) {
        JsonNode payload;
        try {
            payload = json.readTree(message.payload());
        } catch (IOException e) {
            payload = json.createObjectNode();
        }
        Optional<Targets.Target> target = targets.of(message.orgId(), message.callId(), payload);
        if (target.isEmpty()) {
            if (store.skip(message, "no server URL: neither the tool, the assistant nor the phone number has one")) {
                metrics.finished("skipped");
            }
            return;
        }
        String id = message.id().toString();
        long timestamp = Instant.now().getEpochSecond();
        String signature = Signatures.sign(secrets.signingKeys(message.orgId()), id, timestamp, message.payload());
        WebhookSender.Result result;
        try {
            result = sender.send(target.get().url(), WebhookSender.headers(id, timestamp, signature,
                    target.get().secret()), message.payload(), config.timeout(), false);
        } catch (InterruptedException e) {
            // Killed mid-send: nothing is recorded; the claim expires and another worker sends the message.
            Thread.currentThread().interrupt();
            return;
        }
        metrics.attempt(result.kind(), result.latencyMillis());
        String status;
        Instant next = null;
        switch (result.kind()) {
            case DELIVERED -> status = "delivered";
            case RETRYABLE -> {
                Optional<Duration> delay = schedule.nextDelay(message.made() + 1, result.retryAfter());
                status = delay.isPresent() ? "pending" : "dead";
                next = delay.map(d -> Instant.now().plus(d)).orElse(null);
            }
            default -> status = "dead";
        }
        boolean recorded = store.record(message, status, next, target.get().url(), result.statusCode(),
                result.latencyMillis(), result.kind().name().toLowerCase(java.util.Locale.ROOT), result.error());
        if (recorded && !status.equals("pending")) {
            metrics.finished(status);
        }
    }
}
