package dev.voiceplane.assistant.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.voiceplane.kit.assistant.AssistantBody;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/** An assistant as it is returned: the common fields and the fields as they were written, unset ones omitted. */
@RegisterForReflection
public record AssistantView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        @JsonUnwrapped AssistantBody assistant) {
}
