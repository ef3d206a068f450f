package dev.voiceplane.call.domain;

import java.util.Optional;

/**
 * The status machine of a call: {@code queued → ringing → in-progress → (forwarding) → ended}. A call only moves
 * forward (a late {@code ringing} after {@code in-progress} changes nothing), any state may end, and
 * {@code ended} is terminal.
 */
public enum CallStatus implements WireValue {
    QUEUED("queued"),
    RINGING("ringing"),
    IN_PROGRESS("in-progress"),
    FORWARDING("forwarding"),
    ENDED("ended");

    private final String wire;

    CallStatus(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static Optional<CallStatus> of(String wire) {
        return WireValue.find(CallStatus.class, wire);
    }

    /** Whether a call in this status may move to {@code next}: forward only, never out of {@code ended}. */
    public boolean canMoveTo(CallStatus next) {
        return this != ENDED && next.ordinal() > ordinal();
    }

    /** The {@code calls.status} column: the wire text. */
    @jakarta.persistence.Converter
    public static final class Column extends WireValue.Column<CallStatus> {
        public Column() {
            super(CallStatus.class);
        }
    }
}
