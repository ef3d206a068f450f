package dev.voiceplane.call.service;

import dev.voiceplane.call.repository.CallRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Dials again, on every replica, the outbound calls whose last attempt found telephony-service or the carrier
 * unavailable (or whose creating request died mid-dial): each run claims due calls with
 * {@code FOR UPDATE SKIP LOCKED} and, in the same transaction, counts the attempt and pushes its due time to the
 * lease, so no two replicas dial one call at once; telephony's dial is idempotent per call id besides.
 */
@ApplicationScoped
public class DialRetries {

    private static final Logger LOG = Logger.getLogger(DialRetries.class);
    static final int BATCH = 20;

    private final CallRepository calls;
    private final Dialling dialling;

    public DialRetries(CallRepository calls, Dialling dialling) {
        this.calls = calls;
        this.dialling = dialling;
    }

    @Scheduled(every = "${voice.call.dial-retry-every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void run() {
        try {
            retryDue(Instant.now());
        } catch (RuntimeException e) {
            LOG.warnf("dial retries failed: %s", e.toString());
        }
    }

    /** One run as of {@code now}: claims one batch of due calls and dials each; returns how many it dialled. */
    @ActivateRequestContext // reads outside a transaction need one; a scheduler thread has none of a request
    public int retryDue(Instant now) {
        List<CallRepository.Due> claimed = QuarkusTransaction.requiringNew().call(() -> {
            List<CallRepository.Due> due = new ArrayList<>();
            for (CallRepository.Due call : calls.claimDialsDue(now, BATCH)) {
                calls.findOwnedForChange(call.orgId(), call.id()).ifPresent(locked -> {
                    dialling.announceNext(locked, now);
                    due.add(call);
                });
            }
            return due;
        });
        for (CallRepository.Due call : claimed) {
            try {
                dialling.attempt(call.orgId(), call.id());
            } catch (RuntimeException e) {
                LOG.warnf("dialling call %s again failed: %s", call.id(), e.toString());
            }
        }
        return claimed.size();
    }
}
