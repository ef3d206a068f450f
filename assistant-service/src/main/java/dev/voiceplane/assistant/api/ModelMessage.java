package dev.voiceplane.assistant.api;

import dev.voiceplane.assistant.api.constraint.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/** A message the language model starts the conversation with (its system prompt, usually). */
@RegisterForReflection
public record ModelMessage(
        String content,
        @NotNull @OneOf({"assistant", "function", "user", "system", "tool"}) String role) {
}
