package dev.voiceplane.call.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What telephony-service answers the carrier: {@code connect} (stream the media to the voice runtime, with this
 * call id) or {@code refuse} (say {@code message} and hang up; the call exists, ended, so the customer sees it).
 */
@RegisterForReflection
public record InboundCallAnswer(String callId, String answer, String message) {

    public static InboundCallAnswer connect(String callId) {
        return new InboundCallAnswer(callId, "connect", null);
    }

    public static InboundCallAnswer refuse(String callId, String message) {
        return new InboundCallAnswer(callId, "refuse", message);
    }
}
