package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/** What the assistant says around a tool call, optionally only when the call's arguments meet conditions. */
@RegisterForReflection
public record ToolMessage(
        @NotNull @OneOf({"request-start", "request-complete", "request-failed", "request-response-delayed"})
        String type,
        String content,
        List<@NotNull @Valid Condition> conditions) {
}
