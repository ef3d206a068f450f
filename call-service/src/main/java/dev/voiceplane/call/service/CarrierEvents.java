package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallEvents;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.contracts.telephony.CarrierEvent;
import dev.voiceplane.contracts.telephony.EventReceipt;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * Carrier events from telephony-service (docs/calls.md, "Lifecycle"; docs/call-contracts.md §2): each is recorded once
 * by its event id, then applied if it moves the call forward. Twilio's {@code SequenceNumber} orders a call's events:
 * one older than the last applied is recorded and changes nothing. The first end wins; later events only fill the
 * carrier's duration.
 */
@ApplicationScoped
public class CarrierEvents {

    private final CallRepository calls;
    private final CallEvents events;
    private final Lifecycle lifecycle;
    private final CarrierLines lines;
    private final EndOfCall endOfCall;
    private final ObjectMapper json;
    private final Details details;
    private final Voicemails voicemails;

    public CarrierEvents(CallRepository calls, CallEvents events, Lifecycle lifecycle, CarrierLines lines,
            EndOfCall endOfCall, ObjectMapper json, Details details, Voicemails voicemails) {
        this.details = details;
        this.voicemails = voicemails;
        this.calls = calls;
        this.events = events;
        this.lifecycle = lifecycle;
        this.lines = lines;
        this.endOfCall = endOfCall;
        this.json = json;
    }

    private record Outcome(EventReceipt receipt, UUID callId, boolean ended, boolean hangUp, String phoneNumberId,
            String sealingContext, String carrierCallId, Machine machine) {
    }

    /** A machine the runtime is to leave a message on: where the runtime is (null: not known yet), what was heard. */
    private record Machine(String runtimeUrl, String answeredBy) {
    }

    public EventReceipt report(String orgId, CarrierEvent event) {
        String payload;
        try {
            payload = json.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Outcome outcome = QuarkusTransaction.requiringNew().call(() -> {
            Call call = find(orgId, event).orElseThrow(() -> ApiException.notFound("Call"));
            if (call.phoneCallProviderId == null) {
                // The first status callback can arrive before the dial's answer was written.
                call.phoneCallProvider = event.phoneCallProvider();
                call.phoneCallProviderId = event.phoneCallProviderId();
            }
            String source = "carrier:" + event.phoneCallProvider();
            if (!events.record(orgId, call.id, source, event.eventId(), event.type(), payload)) {
                return new Outcome(new EventReceipt(false, false, call.status.wire()), call.id, false, false, null, null, null,
                        null);
            }
            boolean wasEnded = call.ended();
            Machine[] machine = new Machine[1];
            boolean applied = apply(call, event, machine);
            if (applied) {
                events.markApplied(orgId, call.id, source, event.eventId());
            }
            boolean endedNow = !wasEnded && call.ended();
            boolean voicemail = endedNow && call.endedReason == EndedReason.VOICEMAIL;
            return new Outcome(new EventReceipt(true, applied, call.status.wire()), call.id, endedNow, voicemail,
                    call.phoneNumberId, call.sealingContext(), call.phoneCallProviderId, machine[0]);
        });
        if (outcome.machine() != null && outcome.machine().runtimeUrl() != null && !voicemails.tell(orgId,
                outcome.callId(), outcome.machine().runtimeUrl(), outcome.machine().answeredBy())) {
            // The runtime cannot be reached: the call ends as it would without a message.
            return endAsVoicemail(orgId, outcome);
        }
        if (outcome.hangUp()) {
            lines.hangUp(orgId, outcome.callId(), outcome.phoneNumberId(), outcome.sealingContext(), outcome.carrierCallId());
        }
        if (outcome.ended()) {
            endOfCall.finaliseIfReady(orgId, outcome.callId(), false);
        }
        return outcome.receipt();
    }

    private Optional<Call> find(String orgId, CarrierEvent event) {
        if (event.callId() != null) {
            Optional<UUID> id = Ids.parse(event.callId());
            if (id.isPresent()) {
                Optional<Call> call = calls.findOwnedForChange(orgId, id.get());
                if (call.isPresent()) {
                    return call;
                }
            }
        }
        return calls.findByCarrierCallForChange(orgId, event.phoneCallProvider(), event.phoneCallProviderId());
    }

    private EventReceipt endAsVoicemail(String orgId, Outcome outcome) {
        Call ended = QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.requireOwnedForChange(orgId, outcome.callId(), "Call");
            return lifecycle.end(call, EndedReason.VOICEMAIL, OrgScopedEntity.now()) ? call : null;
        });
        if (ended != null) {
            lines.hangUp(orgId, ended.id, ended.phoneNumberId, ended.sealingContext(), ended.phoneCallProviderId);
            endOfCall.finaliseIfReady(orgId, ended.id, false);
        }
        return new EventReceipt(true, true, CallStatus.ENDED.wire());
    }

    private boolean apply(Call call, CarrierEvent event, Machine[] machine) {
        if (event.durationSeconds() != null && event.durationSeconds() >= 0) {
            call.carrierDurationSeconds = event.durationSeconds();
        }
        if (event.sequenceNumber() != null) {
            if (call.lastCarrierSequence != null && event.sequenceNumber() < call.lastCarrierSequence) {
                return false; // older than what was applied: recorded for the record only
            }
            call.lastCarrierSequence = event.sequenceNumber();
        }
        var now = OrgScopedEntity.now();
        if (CarrierEvent.ANSWERED_BY.equals(event.type())) {
            if (!voicemail(call, event.answeredBy())) {
                return false;
            }
            if (voicemails.leavesMessage(call, event.answeredBy())) {
                machine[0] = new Machine(call.runtimeUrl, event.answeredBy());
                return true;
            }
            return lifecycle.end(call, EndedReason.VOICEMAIL, now);
        }
        if (!CarrierEvent.STATUS.equals(event.type()) || event.carrierStatus() == null) {
            return false;
        }
        String status = event.carrierStatus().toLowerCase(Locale.ROOT);
        return switch (status) {
            case "ringing" -> lifecycle.move(call, CallStatus.RINGING, now);
            case "in-progress", "answered" -> lifecycle.move(call, CallStatus.IN_PROGRESS, now);
            case "completed", "canceled", "cancelled" -> lifecycle.end(call, EndedReason.CUSTOMER_ENDED_CALL, now);
            case "busy" -> lifecycle.end(call, EndedReason.CUSTOMER_BUSY, now);
            case "no-answer", "timeout", "unanswered" -> lifecycle.end(call, EndedReason.CUSTOMER_DID_NOT_ANSWER, now);
            case "failed" -> lifecycle.end(call, EndedReason.failedToConnect(event.phoneCallProvider()), now);
            case "rejected" -> lifecycle.end(call, EndedReason.VONAGE_REJECTED, now);
            case "disconnected" -> lifecycle.end(call, EndedReason.VONAGE_DISCONNECTED, now);
            case "machine" -> {
                if (voicemails.leavesMessage(call, "machine")) {
                    machine[0] = new Machine(call.runtimeUrl, "machine");
                    yield true;
                }
                yield lifecycle.end(call, EndedReason.VOICEMAIL, now);
            }
            default -> false; // queued, initiated, started: the call is queued already
        };
    }

    /**
     * Whether an answering-machine result means voicemail: one of the assistant's
     * {@code voicemailDetection.voicemailDetectionTypes} when it names them, else any machine (Twilio's
     * {@code machine_start}, {@code machine_end_*}, {@code fax}; Vonage's {@code machine}).
     */
    private boolean voicemail(Call call, String answeredBy) {
        if (answeredBy == null) {
            return false;
        }
        Optional<List<String>> types = details.kept(call).voicemailDetectionTypes();
        if (types.isPresent() && !"machine".equals(answeredBy)) {
            return types.get().contains(answeredBy);
        }
        return answeredBy.startsWith("machine") || answeredBy.equals("fax");
    }
}
