package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * call-service's receipt of an event (docs/call-contracts.md §2, and of the runtime's events): {@code recorded} is
 * false for one already recorded, {@code applied} whether it changed the call, {@code status} the call's status now.
 * Boxed, so that a receiver reading an older or newer call-service's receipt never fails on a missing field.
 */
@RegisterForReflection
public record EventReceipt(Boolean recorded, Boolean applied, String status) {

    /** Recorded now (false when absent: nothing is claimed that was not said). */
    public boolean wasRecorded() {
        return Boolean.TRUE.equals(recorded);
    }
}
