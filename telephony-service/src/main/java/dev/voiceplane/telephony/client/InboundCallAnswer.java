package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * call-service's answer to an inbound call: {@code answer} {@code connect} (stream the media to the voice runtime)
 * or {@code refuse} (say {@code message}, or a default, and hang up).
 */
@RegisterForReflection
public record InboundCallAnswer(String callId, String answer, String message) {

    public static final String CONNECT = "connect";
    public static final String REFUSE = "refuse";

    public boolean connects() {
        return CONNECT.equals(answer) && callId != null && !callId.isBlank();
    }
}
