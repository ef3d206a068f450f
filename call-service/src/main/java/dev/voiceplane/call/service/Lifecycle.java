package dev.voiceplane.call.service;

import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.EndedReason;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;

/**
 * The status machine, applied inside the caller's transaction to a call it holds locked: a call moves forward
 * only, {@code ended} is terminal (the first end wins), and every change writes its {@code status-update} to the
 * outbox in the same transaction.
 */
@ApplicationScoped
public class Lifecycle {

    private final ServerMessages messages;

    public Lifecycle(ServerMessages messages) {
        this.messages = messages;
    }

    /** Moves the call to {@code next}; false (and nothing written) when that is not a move forward. */
    public boolean move(Call call, CallStatus next, Instant at) {
        if (next == CallStatus.ENDED) {
            throw new IllegalArgumentException("end a call with end()");
        }
        if (!call.status.canMoveTo(next)) {
            return false;
        }
        call.status = next;
        call.nextDialAt = null; // the carrier call exists: no dial attempt is pending any more
        if (next == CallStatus.IN_PROGRESS && call.startedAt == null) {
            call.startedAt = at;
        }
        call.touch();
        messages.statusUpdate(call);
        return true;
    }

    /** Ends the call with {@code reason}; false when it had ended already (its first reason stays). */
    public boolean end(Call call, EndedReason reason, Instant at) {
        if (call.ended()) {
            return false;
        }
        call.status = CallStatus.ENDED;
        call.endedReason = reason;
        call.endedAt = at;
        call.nextDialAt = null;
        call.touch();
        messages.statusUpdate(call);
        return true;
    }
}
