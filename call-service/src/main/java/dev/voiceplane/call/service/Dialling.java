package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CustomerBody;
import dev.voiceplane.call.client.Telephony;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Dialling an outbound call through telephony-service, the first time (the creating request) and again later
 * ({@link DialRetries}). An attempt is always announced in the database before it runs: {@code dial_attempts} is
 * counted and {@code next_dial_at} set to a lease, so that if the process dies mid-dial the call is dialled again
 * by any replica once the lease runs out. Telephony's dial is idempotent per call id, so a second attempt never
 * places a second carrier call. After the attempt:
 * <ul>
 * <li>placed: the carrier's ids are stored, no attempt is pending;</li>
 * <li>refused (4xx): the call ends {@code twilio-failed-to-connect-call} / {@code vonage-failed-to-connect-call};</li>
 * <li>unavailable (503, timeout, open breaker, 409 "being dialled"): the call stays {@code queued} and the next
 * attempt is due after a doubling delay, up to {@code voice.call.dial-attempts} attempts; then it ends as
 * refused does.</li>
 * </ul>
 */
@ApplicationScoped
public class Dialling {

    private static final Logger LOG = Logger.getLogger(Dialling.class);

    private final CallRepository calls;
    private final CallDocuments documents;
    private final Configurations configurations;
    private final Details details;
    private final Lifecycle lifecycle;
    private final Telephony telephony;
    private final EndOfCall endOfCall;
    private final ObjectMapper json;
    private final int maxAttempts;
    private final Duration firstDelay;
    private final Duration maxDelay;
    private final Duration lease;

    public Dialling(CallRepository calls, CallDocuments documents, Configurations configurations, Details details,
            Lifecycle lifecycle, Telephony telephony, EndOfCall endOfCall, ObjectMapper json,
            @ConfigProperty(name = "voice.call.dial-attempts") int maxAttempts,
            @ConfigProperty(name = "voice.call.dial-retry-delay") Duration firstDelay,
            @ConfigProperty(name = "voice.call.dial-retry-max-delay") Duration maxDelay,
            @ConfigProperty(name = "voice.call.dial-lease") Duration lease) {
        this.calls = calls;
        this.documents = documents;
        this.configurations = configurations;
        this.details = details;
        this.lifecycle = lifecycle;
        this.telephony = telephony;
        this.endOfCall = endOfCall;
        this.json = json;
        this.maxAttempts = Math.max(1, maxAttempts);
        this.firstDelay = firstDelay;
        this.maxDelay = maxDelay;
        this.lease = lease;
    }

    /** Marks the first attempt on a call being inserted (in the creating transaction). */
    public void announceFirst(Call call, Instant now) {
        call.dialAttempts = 1;
        call.nextDialAt = now.plus(lease);
    }

    /** Claims one further attempt on a call locked by the caller's transaction. */
    public void announceNext(Call call, Instant now) {
        call.dialAttempts++;
        call.nextDialAt = now.plus(lease);
    }

    /** The delay before attempt {@code attempts + 1}: the first delay, doubled per attempt, at most the maximum. */
    Duration backoff(int attempts) {
        Duration delay = firstDelay.multipliedBy(1L << Math.min(Math.max(attempts - 1, 0), 20));
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }

    private record Attempt(Telephony.Line line, CustomerBody customer, ObjectNode voicemail, int maxDuration,
            String carrier) {
    }

    /** Runs the announced attempt on the call (outside any transaction) and records what became of it. */
    public void attempt(String orgId, UUID id) {
        Optional<Attempt> prepared = QuarkusTransaction.requiringNew().call(() -> prepare(orgId, id));
        if (prepared.isEmpty()) {
            return;
        }
        Attempt attempt = prepared.get();
        Telephony.DialOutcome outcome = telephony.dial(orgId, attempt.line(), id.toString(), attempt.customer(),
                attempt.voicemail(), attempt.maxDuration());
        record Applied(boolean hangUp, boolean ended) {
        }
        Applied applied = QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.findOwnedForChange(orgId, id).orElse(null);
            Instant now = OrgScopedEntity.now();
            if (call == null || call.ended()) {
                // Deleted or ended on request while it was being dialled: the carrier call just placed must not
                // ring on.
                if (call != null && outcome instanceof Telephony.Placed placed && call.phoneCallProviderId == null) {
                    call.phoneCallProviderId = placed.dialled().phoneCallProviderId();
                    call.touch();
                }
                return new Applied(outcome instanceof Telephony.Placed, false);
            }
            switch (outcome) {
                case Telephony.Placed placed -> {
                    Telephony.Dialled dialled = placed.dialled();
                    if (dialled.phoneCallProvider() != null) {
                        call.phoneCallProvider = dialled.phoneCallProvider();
                    }
                    call.phoneCallProviderId = dialled.phoneCallProviderId();
                    if (dialled.phoneCallProviderDetails() != null) {
                        ObjectNode row = details.read(call);
                        row.set("phoneCallProviderDetails", dialled.phoneCallProviderDetails());
                        details.write(call, row);
                    }
                    call.nextDialAt = null;
                    call.dialledAt = now;
                    call.touch();
                    return new Applied(false, false);
                }
                case Telephony.Refused refused -> {
                    lifecycle.end(call, EndedReason.failedToConnect(attempt.carrier()), now);
                    return new Applied(false, true);
                }
                case Telephony.Unavailable unavailable -> {
                    if (call.dialAttempts >= maxAttempts) {
                        LOG.infof("call %s: dialling still unavailable after %d attempts; ending it", id, call.dialAttempts);
                        lifecycle.end(call, EndedReason.failedToConnect(attempt.carrier()), now);
                        return new Applied(false, true);
                    }
                    call.nextDialAt = now.plus(backoff(call.dialAttempts));
                    call.touch();
                    return new Applied(false, false);
                }
            }
        });
        if (applied.hangUp()) {
            telephony.hangUp(orgId, attempt.line(), ((Telephony.Placed) outcome).dialled().phoneCallProviderId());
        }
        if (applied.ended()) {
            endOfCall.finaliseIfReady(orgId, id, false);
        }
    }

    /** What the attempt needs, from the call's row and frozen configuration; empty when it is not to be dialled. */
    private Optional<Attempt> prepare(String orgId, UUID id) {
        Call call = calls.findOwned(orgId, id).orElse(null);
        if (call == null || call.ended()) {
            return Optional.empty();
        }
        CallDocuments.Stored stored = documents.read(orgId, id);
        ObjectNode configuration = stored == null ? json.createObjectNode()
                : configurations.read(stored.configuration(), call.sealingContext());
        FrozenConfiguration frozen = configurations.frozen(configuration);
        Optional<Telephony.Line> line = CarrierLines.of(call.phoneNumberId, frozen);
        CustomerBody customer = json.convertValue(details.read(call).get("customer"), CustomerBody.class);
        if (line.isEmpty() || customer == null || customer.number() == null) {
            LOG.warnf("call %s: queued for dialling without a number to dial from or to", id);
            return Optional.empty();
        }
        ObjectNode voicemail = AssistantSettings.of(configurations.effectiveAssistant(configuration))
                .voicemailDetection().orElse(null);
        String carrier = call.phoneCallProvider != null ? call.phoneCallProvider : frozen.carrier();
        return Optional.of(new Attempt(line.get(), customer, voicemail, call.maxDurationSeconds, carrier));
    }
}
