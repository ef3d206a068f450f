package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/** A message the language model starts the conversation with (its system prompt, usually). */
@RegisterForReflection
public record ModelMessage(
        String content,
        @NotNull @OneOf({"assistant", "function", "user", "system", "tool"}) String role) {
}
