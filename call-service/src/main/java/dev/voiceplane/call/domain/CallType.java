package dev.voiceplane.call.domain;

/** The era's call types (docs/api-reference.md, "Calls"). */
public final class CallType {

    public static final String INBOUND = "inboundPhoneCall";
    public static final String OUTBOUND = "outboundPhoneCall";
    public static final String WEB = "webCall";

    private CallType() {
    }
}
