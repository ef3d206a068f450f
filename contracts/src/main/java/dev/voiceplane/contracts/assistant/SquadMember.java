package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * One assistant of a squad: a stored one by {@code assistantId} (of the caller's organisation) or an inline
 * {@code assistant}, validated exactly as {@code POST /assistant} is; optional overrides and hand-off destinations.
 */
@RegisterForReflection
@OneAssistant
public record SquadMember(
        String assistantId,
        @Valid AssistantBody assistant,
        @Valid AssistantOverrides assistantOverrides,
        List<@NotNull @Valid Destination> assistantDestinations) {
}
