package dev.voiceplane.telephony.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The other party of a call, as calls show it ({@code customer.number}). */
@RegisterForReflection
public record Customer(String number) {
}
