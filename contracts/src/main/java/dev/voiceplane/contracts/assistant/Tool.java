package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/** A tool the model can call: a function on the customer's server, a transfer, ending the call, ... */
@RegisterForReflection
public record Tool(
        Boolean async,
        @NotNull @OneOf({"function", "transferCall", "endCall", "dtmf", "make", "ghl", "voicemail"}) String type,
        List<@NotNull @Valid ToolMessage> messages,
        List<@NotNull @Valid TransferDestination> destinations,
        @Valid ToolFunction function,
        @Valid ToolServer server) {
}
