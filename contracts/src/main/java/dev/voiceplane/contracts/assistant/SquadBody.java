package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/** A squad as clients write it: an optional name and a non-empty list of members. */
@RegisterForReflection
public record SquadBody(
        @Size(max = 100) String name,
        @NotNull @Size(min = 1, message = "must contain at least 1 elements")
        List<@NotNull @Valid SquadMember> members) {
}
