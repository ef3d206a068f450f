package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/** Where a squad member can hand the call: another assistant of the squad, by name ({@code assistantDestinations}). */
@RegisterForReflection
public record Destination(
        @NotNull @OneOf({"assistant"}) String type,
        @NotNull String assistantName,
        String message,
        String description) {
}
