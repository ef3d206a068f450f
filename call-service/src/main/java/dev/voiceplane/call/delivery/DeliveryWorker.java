package dev.voiceplane.call.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.call.repository.DeliveryStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * One replica's delivery loop. Each round it records the results of the sends that ended since the last round (one
 * statement, one commit for all of them), then claims due messages (as many as it has free sending slots; one
 * statement) and hands each to a sending virtual thread. When a claim comes back full there is a backlog: the loop
 * then lets a share of the slots come free before the next round, so that rounds stay large (a statement per
 * message would cost more than the send); when nothing more is due it waits up to {@code pollInterval}, or until one
 * of its sends ends (the next message of that call may be due once the result is recorded). Every replica runs one,
 * and they share the work through the table ({@code FOR UPDATE SKIP LOCKED}); a replica that dies leaves claims
 * (and results it had not recorded yet) that expire with their lease: those messages are sent again.
 *
 * <p>An own loop rather than quarkus-scheduler: a busy queue is drained back to back instead of once per tick, the
 * bounded pool is part of the loop (claims never outrun the slots, so no claim waits out its lease in a queue), and
 * tests run several independent workers in one JVM and stop one mid-batch.
 */
public final class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger(DeliveryWorker.class);
    /** With a backlog, the longest a round waits for more sends to end after the first one did. */
    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Finished messages deleted per purge statement (a round does at most one, so delivery never waits long). */
    static final int PURGE_BATCH = 1000;
    /** How often a worker looks for finished messages past the retention, once it has caught up. */
    private static final long PURGE_EVERY_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final String name;
    private final DeliveryStore store;
    private final Targets targets;
    private final SigningSecrets secrets;
    private final WebhookSender sender;
    private final DeliveryMetrics metrics;
    private final ObjectMapper json;
    private final RetrySchedule schedule;
    private final DeliveryConfig config;
    private final int concurrency;
    private final Semaphore slots;
    /** Released when a send ends: its result is to be recorded, and the next message of that call may then be due. */
    private final Semaphore wake = new Semaphore(0);
    /** Sends that ended and whose result the loop has not recorded yet. */
    private final ConcurrentLinkedQueue<DeliveryStore.Outcome> ended = new ConcurrentLinkedQueue<>();
    private final ExecutorService sending = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("webhook-send-", 0).factory());
    private volatile boolean running;
    /** Whether the last claim got every message it asked for (only the loop thread uses it). */
    private boolean backlog;
    /** When the next purge is due (System.nanoTime; only the loop thread uses it): the first round does one. */
    private long nextPurge = System.nanoTime();
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
        this.concurrency = Math.max(1, config.concurrency());
        this.slots = new Semaphore(concurrency);
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        loop = Thread.ofVirtual().name("webhook-worker-" + name).start(this::run);
    }

    /** Stops claiming, waits up to {@code drain} for the messages in flight and records their results. */
    public void stop(Duration drain) {
        long deadline = System.nanoTime() + drain.toNanos();
        running = false;
        wake.release(concurrency + 1);
        Thread current = loop;
        try {
            // The loop ends its round (never interrupted in a statement, which would close its connection).
            if (current != null && !current.join(drain)) {
                current.interrupt();
            }
            sending.shutdown();
            if (!sending.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                sending.shutdownNow();
            }
            recordEnded();
        } catch (InterruptedException e) {
            sending.shutdownNow();
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // Not recorded: those messages are sent again after their lease (at least once).
            LOG.warnf("delivery worker %s: results at stop not recorded: %s", name, e.toString());
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
                wake.drainPermits();
                recordEnded();
                if (!running) {
                    return;
                }
                purge();
                Round round = claimAndSend();
                awaitWork(round);
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

    /** What one round claimed: {@code asked} 0 when no slot was free. */
    private record Round(int asked, int claimed) {
    }

    /**
     * Waits for the next round. With a backlog (the last claim got all it asked for, or no slot was free): until a
     * quarter of the slots are free, or {@link #GATHER_NANOS} after the first send ended. Otherwise until a send
     * ends (the next message of its call may be due once its result is recorded) or {@code pollInterval}.
     */
    private void awaitWork(Round round) throws InterruptedException {
        if (round.asked() > 0) {
            backlog = round.claimed() == round.asked();
        }
        if (!backlog) {
            wake.tryAcquire(config.pollInterval().toNanos(), TimeUnit.NANOSECONDS);
            return;
        }
        int enough = Math.max(1, concurrency / 4);
        if (slots.availablePermits() >= enough
                || !wake.tryAcquire(config.pollInterval().toNanos(), TimeUnit.NANOSECONDS)) {
            return;
        }
        long until = System.nanoTime() + GATHER_NANOS;
        while (running && slots.availablePermits() < enough) {
            long left = until - System.nanoTime();
            if (left <= 0 || !wake.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    /**
     * Deletes one bounded batch of messages finished longer than the retention ago (any replica may; they skip each
     * other's rows). While batches come back full the next round deletes another; then every ten minutes.
     */
    private void purge() {
        Duration retention = config.retention();
        if (retention.isZero() || retention.isNegative() || System.nanoTime() - nextPurge < 0) {
            return;
        }
        try {
            int purged = store.purge(Instant.now().minus(retention), PURGE_BATCH);
            nextPurge = System.nanoTime() + (purged < PURGE_BATCH ? PURGE_EVERY_NANOS : 0);
        } catch (RuntimeException e) {
            nextPurge = System.nanoTime() + PURGE_EVERY_NANOS;
            LOG.warnf("delivery worker %s: old deliveries not purged: %s", name, e.toString());
        }
    }

    /** Records the results of the sends that ended, in one statement. */
    private void recordEnded() {
        List<DeliveryStore.Outcome> batch = new ArrayList<>();
        for (DeliveryStore.Outcome outcome; (outcome = ended.poll()) != null; ) {
            batch.add(outcome);
        }
        if (batch.isEmpty()) {
            return;
        }
        Map<UUID, String> recorded;
        try {
            recorded = store.record(batch);
        } catch (RuntimeException e) {
            // Left claimed: the lease ends and the messages are sent again (at least once), as after a crash.
            LOG.warnf("delivery worker %s: %d results not recorded: %s", name, batch.size(), e.toString());
            return;
        }
        for (String status : recorded.values()) {
            if (!status.equals("pending")) {
                metrics.finished(status);
            }
        }
    }

    /** One round's claim: up to the free slots, each message handed to a sending thread. */
    Round claimAndSend() {
        int free = slots.drainPermits();
        if (free == 0) {
            return new Round(0, 0);
        }
        int asked = Math.min(free, Math.max(1, config.batchSize()));
        List<DeliveryStore.Claimed> batch;
        try {
            batch = store.claim(asked, config.lease());
            targets.prepare(batch);
        } catch (RuntimeException e) {
            slots.release(free);
            throw e;
        }
        slots.release(free - batch.size());
        for (DeliveryStore.Claimed message : batch) {
            try {
                sending.execute(() -> {
                    try {
                        DeliveryStore.Outcome outcome = deliver(message);
                        if (outcome != null) {
                            ended.add(outcome);
                        }
                    } catch (RuntimeException e) {
                        LOG.warnf("delivery of message %s failed: %s", message.id(), e.toString());
                    } finally {
                        slots.release();
                        wake.release();
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                slots.release();
            }
        }
        return new Round(asked, batch.size());
    }

    /** Sends one message; its outcome, or null when the worker was killed mid-send (nothing is recorded). */
    private DeliveryStore.Outcome deliver(DeliveryStore.Claimed message) {
        JsonNode payload = json.createObjectNode();
        // Only a message about tool calls may name its own target: the others need no parsing here.
        if (message.payload().contains("toolWithToolCallList")) {
            try {
                payload = json.readTree(message.payload());
            } catch (IOException e) {
                payload = json.createObjectNode();
            }
        }
        Optional<Target> target = targets.of(message.orgId(), message.callId(), payload);
        if (target.isEmpty()) {
            return DeliveryStore.Outcome.skipped(message,
                    "no server URL: neither the tool, the assistant nor the phone number has one");
        }
        String id = message.id().toString();
        long timestamp = Instant.now().getEpochSecond();
        String signature = Signatures.signWith(secrets.signers(message.orgId()), id, timestamp, message.payload());
        WebhookSender.Result result;
        try {
            result = sender.send(target.get().url(), WebhookSender.headers(target.get().headers(), id, timestamp,
                    signature, target.get().secret()), message.payload(), target.get().deadline(config.timeout()), false);
        } catch (InterruptedException e) {
            // Killed mid-send: nothing is recorded; the claim expires and another worker sends the message.
            Thread.currentThread().interrupt();
            return null;
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
        return new DeliveryStore.Outcome(message, status, next, Instant.now().minusMillis(result.latencyMillis()),
                target.get().url(), result.statusCode(), result.latencyMillis(),
                result.kind().name().toLowerCase(java.util.Locale.ROOT), result.error());
    }
}
