package dev.voiceplane.call.service;

import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Ends calls that would otherwise stay live forever, on every replica without double work: each run claims due
 * calls with {@code FOR UPDATE SKIP LOCKED} (another replica's run takes other calls) and ends them: a call still
 * queued or ringing after {@code voice.call.unanswered-timeout} (outbound: {@code customer-did-not-answer}, others:
 * never connected), a call in progress past its {@code maxDurationSeconds} plus {@code voice.call.duration-grace}
 * ({@code exceeded-max-duration}, and the carrier call is hung up). An ended call whose end-of-call report still
 * waits for the runtime after {@code voice.call.report-grace} gets its report with what is known.
 */
@ApplicationScoped
public class CallSweeper {

    private static final Logger LOG = Logger.getLogger(CallSweeper.class);
    static final int BATCH = 100;

    private final CallRepository calls;
    private final Lifecycle lifecycle;
    private final CarrierLines lines;
    private final EndOfCall endOfCall;
    private final Duration durationGrace;
    private final Duration unansweredTimeout;
    private final Duration reportGrace;

    public CallSweeper(CallRepository calls, Lifecycle lifecycle, CarrierLines lines, EndOfCall endOfCall,
            @ConfigProperty(name = "voice.call.duration-grace") Duration durationGrace,
            @ConfigProperty(name = "voice.call.unanswered-timeout") Duration unansweredTimeout,
            @ConfigProperty(name = "voice.call.report-grace") Duration reportGrace) {
        this.calls = calls;
        this.lifecycle = lifecycle;
        this.lines = lines;
        this.endOfCall = endOfCall;
        this.durationGrace = durationGrace;
        this.unansweredTimeout = unansweredTimeout;
        this.reportGrace = reportGrace;
    }

    @Scheduled(every = "${voice.call.sweep-every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void run() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.warnf("call sweep failed: %s", e.toString());
        }
    }

    private record Swept(String orgId, java.util.UUID id, boolean endedNow, boolean reportOverdue,
            String phoneNumberId, String sealingContext, String carrierCallId) {
    }

    /** At most this many batches per run, so a call whose report keeps failing cannot keep a run going. */
    static final int MAX_BATCHES = 50;

    /** One run: claims batches until nothing is due; returns how many calls it ended or reported. */
    @ActivateRequestContext // reads outside a transaction need one; a scheduler thread has none of a request
    public int sweep() {
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES; batch++) {
            int swept = sweepBatch();
            total += swept;
            if (swept < BATCH) {
                break;
            }
        }
        return total;
    }

    private int sweepBatch() {
        Instant now = Instant.now();
        List<Swept> swept = QuarkusTransaction.requiringNew().call(() -> {
            List<Swept> done = new ArrayList<>();
            for (CallRepository.Due due : calls.claimDue(now, durationGrace.toSeconds(), now.minus(unansweredTimeout),
                    now.minus(reportGrace), BATCH)) {
                Call call = calls.findOwnedForChange(due.orgId(), due.id()).orElse(null);
                if (call == null) {
                    continue;
                }
                if (call.ended()) {
                    done.add(new Swept(call.orgId, call.id, false, true, null, null, null));
                    continue;
                }
                EndedReason reason = call.status == CallStatus.QUEUED || call.status == CallStatus.RINGING
                        ? (call.type == CallType.OUTBOUND ? EndedReason.CUSTOMER_DID_NOT_ANSWER : EndedReason.NEVER_CONNECTED)
                        : EndedReason.EXCEEDED_MAX_DURATION;
                lifecycle.end(call, reason, OrgScopedEntity.now());
                done.add(new Swept(call.orgId, call.id, true, false, call.phoneNumberId, call.sealingContext(),
                        call.phoneCallProviderId));
            }
            return done;
        });
        for (Swept call : swept) {
            if (call.endedNow()) {
                lines.hangUp(call.orgId(), call.id(), call.phoneNumberId(), call.sealingContext(), call.carrierCallId());
            }
            try {
                endOfCall.finaliseIfReady(call.orgId(), call.id(), call.reportOverdue());
            } catch (RuntimeException e) {
                LOG.warnf("end-of-call report of call %s failed: %s", call.id(), e.toString());
            }
        }
        return swept.size();
    }
}
