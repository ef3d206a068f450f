package dev.voiceplane.contracts.telephony;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Size;

/**
 * The caller of an inbound call, as the carrier reported it ({@code customer.number} of the call). Not held to
 * E.164: a withheld or SIP caller id is what the carrier says it is, and the call must still be answered.
 */
@RegisterForReflection
public record Customer(@Size(max = 200) String number) {
}
