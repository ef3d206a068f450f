package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/** Where a call can be handed: another assistant (of a squad), by name. Used by transfer tools and squad members. */
@RegisterForReflection
public record Destination(
        @NotNull @OneOf({"assistant"}) String type,
        @NotNull String assistantName,
        String message,
        String description) {
}
