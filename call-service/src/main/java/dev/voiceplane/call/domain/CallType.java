package dev.voiceplane.call.domain;

import java.util.Optional;

/** The era's call types (docs/api-reference.md, "Calls"). */
public enum CallType implements WireValue {
    INBOUND("inboundPhoneCall"),
    OUTBOUND("outboundPhoneCall"),
    WEB("webCall");

    private final String wire;

    CallType(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static Optional<CallType> of(String wire) {
        return WireValue.find(CallType.class, wire);
    }

    /** Whether the call has a carrier call (inbound and outbound phone calls; a web call has none). */
    public boolean phone() {
        return this != WEB;
    }

    /** The {@code calls.type} column: the wire text. */
    @jakarta.persistence.Converter
    public static final class Column extends WireValue.Column<CallType> {
        public Column() {
            super(CallType.class);
        }
    }
}
