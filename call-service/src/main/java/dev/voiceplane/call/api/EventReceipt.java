package dev.voiceplane.call.api;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The receipt of an event: {@code recorded} is false for one already recorded; {@code status} the call's status now. */
@RegisterForReflection
public record EventReceipt(boolean recorded, boolean applied, String status) {
}
