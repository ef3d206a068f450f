package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.E164;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/**
 * Where a {@code transferCall} tool may send the call: another assistant of the squad, by {@code assistantName}, or
 * a phone {@code number} (E.164) the carrier call is redirected to. {@code message} is spoken before the transfer.
 * A squad member's {@code assistantDestinations} stay assistants only ({@link Destination}).
 */
@RegisterForReflection
@TransferDestinationFields
public record TransferDestination(
        @NotNull @OneOf({"assistant", "number"}) String type,
        String assistantName,
        @E164 String number,
        String message,
        String description) {

    public static final String ASSISTANT = "assistant";
    public static final String NUMBER = "number";
}
