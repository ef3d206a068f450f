package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The function a tool exposes to the model. */
@RegisterForReflection
public record ToolFunction(
        @NotNull @Pattern(regexp = "^[a-zA-Z0-9_-]{1,64}$") String name,
        String description,
        @Valid FunctionParameters parameters) {
}
