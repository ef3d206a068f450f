package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.client.Telephony;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.domain.WireValue;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.contracts.call.RuntimeTransfer;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The assistant transfers a phone call to a number ({@code POST /internal/call/{id}/runtime/transfer}, docs/calls.md
 * "Voice runtime contract"): telephony-service redirects the carrier call (outside any transaction), then, in one
 * transaction, the call moves to {@code forwarding} with its {@code forwardedPhoneNumber} and ends
 * {@code assistant-forwarded-call} (two {@code status-update}s). It ends at once because the platform's part is over:
 * the caller now talks to the number, and a call left {@code forwarding} would be swept and hung up at its
 * maximum duration, cutting the forwarded conversation. Nothing hangs the carrier call up afterwards.
 */
@ApplicationScoped
public class CallTransfers {

    private static final Logger LOG = Logger.getLogger(CallTransfers.class);

    private final CallRepository calls;
    private final CarrierLines lines;
    private final Telephony telephony;
    private final Lifecycle lifecycle;
    private final Details details;
    private final EndOfCall endOfCall;

    public CallTransfers(CallRepository calls, CarrierLines lines, Telephony telephony, Lifecycle lifecycle,
            Details details, EndOfCall endOfCall) {
        this.calls = calls;
        this.lines = lines;
        this.telephony = telephony;
        this.lifecycle = lifecycle;
        this.details = details;
        this.endOfCall = endOfCall;
    }

    public RuntimeTransfer.Answer transfer(String orgId, UUID callId, RuntimeTransfer request) {
        String number = request.number();
        Call call = calls.requireOwned(orgId, callId, CallManagement.RESOURCE);
        if (call.type == CallType.WEB) {
            throw ApiException.conflict("a web call cannot be transferred to a phone number: it has no carrier call");
        }
        if (call.ended()) {
            // A retry of a transfer that went through gets the same answer; any other ended call cannot move.
            if (call.endedReason == EndedReason.ASSISTANT_FORWARDED_CALL && number.equals(details.read(call).path("forwardedPhoneNumber").asText())) {
                return answer(call, number);
            }
            throw ApiException.conflict("the call has ended (" + WireValue.text(call.endedReason) + "); it cannot be transferred");
        }
        if (call.phoneCallProviderId == null) {
            throw ApiException.conflict("the call has no carrier call yet; it cannot be transferred");
        }
        Telephony.Line line = lines.of(orgId, callId, call.phoneNumberId, call.sealingContext())
                .orElseThrow(() -> ApiException.conflict("the call has no phone number; it cannot be transferred"));
        try {
            telephony.transfer(orgId, line, call.phoneCallProviderId, number);
        } catch (Telephony.TransferFailed failed) {
            throw failed.mayRetry()
                    ? ApiException.unavailable(failed.getMessage() + "; the call was not transferred")
                    : ApiException.of(422, failed.getMessage() + "; the call was not transferred");
        }
        Call transferred = QuarkusTransaction.requiringNew().call(() -> {
            Call locked = calls.requireOwnedForChange(orgId, callId, CallManagement.RESOURCE);
            var now = OrgScopedEntity.now();
            ObjectNode row = details.read(locked);
            row.put("forwardedPhoneNumber", number);
            details.write(locked, row);
            lifecycle.move(locked, CallStatus.FORWARDING, now);
            lifecycle.end(locked, EndedReason.ASSISTANT_FORWARDED_CALL, now);
            locked.touch();
            return locked;
        });
        LOG.infof("call %s transferred to a phone number (carrier call %s)", callId, call.phoneCallProviderId);
        endOfCall.finaliseIfReady(orgId, callId, false);
        return answer(transferred, number);
    }

    private static RuntimeTransfer.Answer answer(Call call, String number) {
        return new RuntimeTransfer.Answer(call.status.wire(), WireValue.text(call.endedReason), number);
    }
}
