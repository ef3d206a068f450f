package dev.voiceplane.runtime.ops;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The calls this replica holds, and its graceful stop: on SIGTERM no new media is accepted and readiness turns DOWN
 * ({@link DrainReadiness}); then the stop waits up to {@code voice.runtime.drain-timeout} for live calls to finish
 * by themselves, and ends those still live with {@code server-shutdown}. The Kubernetes termination grace is sized
 * for it (deploy/k8s).
 *
 * <p>The wait happens when the shutdown delay starts (Quarkus' pre-shutdown, which waits for its observers), while
 * the whole application still runs: later, the HTTP server closes the calls' sockets and the REST clients to
 * call-service are closed, so a call still live on the shutdown event could neither talk nor report its end
 * (SystemIT, 2026-11-26). The shutdown event's wait remains for a stop without the delay.
 */
@ApplicationScoped
public class LiveCalls {

    private static final Logger LOG = Logger.getLogger(LiveCalls.class);

    private final Set<Consumer<String>> calls = ConcurrentHashMap.newKeySet();
    private final Duration drainTimeout;
    private volatile boolean draining;

    public LiveCalls(@ConfigProperty(name = "voice.runtime.drain-timeout") Duration drainTimeout) {
        this.drainTimeout = drainTimeout;
    }

    /** Whether new media may still be accepted. */
    public boolean accepting() {
        return !draining;
    }

    /** Registers a live call by how to end it; the answer unregisters it. */
    public Runnable add(Consumer<String> ender) {
        calls.add(ender);
        return () -> calls.remove(ender);
    }

    public int size() {
        return calls.size();
    }

    void stopAccepting(@Observes ShutdownDelayInitiatedEvent event) {
        draining = true;
        LOG.infof("stopping: no new media accepted; %d live calls", calls.size());
        drainLiveCalls();
    }

    void drain(@Observes @Priority(1) ShutdownEvent event) {
        draining = true;
        drainLiveCalls();
    }

    private void drainLiveCalls() {
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        while (!calls.isEmpty() && System.nanoTime() < deadline) {
            LOG.infof("stopping: waiting for %d live calls", calls.size());
            try {
                Thread.sleep(Math.min(1000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!calls.isEmpty()) {
            LOG.warnf("stopping: ending %d live calls (server-shutdown)", calls.size());
            for (Consumer<String> ender : Set.copyOf(calls)) {
                ender.accept("server-shutdown");
            }
            long grace = System.nanoTime() + 5_000_000_000L;
            while (!calls.isEmpty() && System.nanoTime() < grace) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
    }
}
