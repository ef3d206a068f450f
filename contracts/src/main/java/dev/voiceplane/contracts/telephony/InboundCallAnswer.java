package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * call-service's answer to an inbound call (docs/call-contracts.md §1): {@code connect} (stream the media to the
 * voice runtime, with this call id) or {@code refuse} (say {@code message}, or a default, and hang up; the call
 * exists, ended, so the customer sees it).
 */
@RegisterForReflection
public record InboundCallAnswer(String callId, String answer, String message) {

    public static final String CONNECT = "connect";
    public static final String REFUSE = "refuse";

    public static InboundCallAnswer connect(String callId) {
        return new InboundCallAnswer(callId, CONNECT, null);
    }

    public static InboundCallAnswer refuse(String callId, String message) {
        return new InboundCallAnswer(callId, REFUSE, message);
    }

    /** Connect, and with a call id to give the runtime. */
    public boolean connects() {
        return CONNECT.equals(answer) && callId != null && !callId.isBlank();
    }
}
