package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.client.RuntimeCalls;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.repository.CallRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

/**
 * An answering machine on a call whose assistant has a {@code voicemailMessage} (docs/calls.md, "Lifecycle"): the
 * call is not ended; the runtime that holds it is told (at the address it gave, {@code runtime_url}) and leaves the
 * message after the beep, then ends the call {@code voicemail} itself. A result that comes before the runtime gave its
 * address waits in the call's details and is handed over in the answer to that address.
 */
@ApplicationScoped
public class Voicemails {

    /** Set at creation when the assistant has a voicemailMessage (details, internal part). */
    public static final String HAS_MESSAGE = "voicemailMessage";
    static final String ANSWERED_BY = "voicemailAnsweredBy";

    private final CallRepository calls;
    private final Details details;
    private final RuntimeCalls runtime;

    public Voicemails(CallRepository calls, Details details, RuntimeCalls runtime) {
        this.calls = calls;
        this.details = details;
        this.runtime = runtime;
    }

    /**
     * In the carrier event's transaction: whether the runtime leaves a message on this machine (the call stays live),
     * with the machine's result kept for a runtime that has not given its address yet.
     */
    boolean leavesMessage(Call call, String answeredBy) {
        ObjectNode row = details.read(call);
        if (!InternalDetails.of(row.path(Details.INTERNAL)).leavesVoicemailMessage() || call.ended()) {
            return false;
        }
        details.internal(row).put(ANSWERED_BY, answeredBy);
        details.write(call, row);
        return true;
    }

    /** After that transaction: tells the runtime that holds the call; false when it cannot be reached. */
    boolean tell(String orgId, UUID callId, String runtimeUrl, String answeredBy) {
        return runtimeUrl != null && runtime.machineDetected(runtimeUrl, orgId, callId, answeredBy);
    }

    /** The runtime gives its address; the answer is a machine result that came first, if any. */
    public Optional<String> runtimeAt(String orgId, UUID callId, String url) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.requireOwnedForChange(orgId, callId, "Call");
            call.runtimeUrl = url;
            call.touch();
            if (call.ended()) {
                return Optional.<String>empty();
            }
            return details.kept(call).voicemailAnsweredBy();
        });
    }
}
