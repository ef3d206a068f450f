package dev.voiceplane.assistant.api;

import dev.voiceplane.kit.assistant.SquadMember;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;

/** A squad as it is returned. */
@RegisterForReflection
public record SquadView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        List<SquadMember> members) {
}
