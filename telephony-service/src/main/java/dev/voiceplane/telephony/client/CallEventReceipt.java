package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** call-service's receipt of an event: {@code recorded} is false for one it had already. */
@RegisterForReflection
public record CallEventReceipt(Boolean recorded) {
}
