package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import java.util.List;

/**
 * What the assistant says around a tool call, optionally only when the call's arguments meet conditions; a
 * {@code request-response-delayed} message is spoken once the tool has not answered for {@code timingMilliseconds}.
 */
@RegisterForReflection
public record ToolMessage(
        @NotNull @OneOf({"request-start", "request-complete", "request-failed", "request-response-delayed"})
        String type,
        String content,
        List<@NotNull @Valid Condition> conditions,
        @PositiveOrZero @Max(300_000) Integer timingMilliseconds) {
}
