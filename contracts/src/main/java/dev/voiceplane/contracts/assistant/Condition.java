package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;

/** A comparison of one tool-call argument with a value; {@code value} is any JSON, kept exactly as sent. */
@RegisterForReflection
public record Condition(
        @NotNull String param,
        @NotNull JsonNode value,
        @NotNull @OneOf({"eq", "neq", "gt", "gte", "lt", "lte"}) String operator) {
}
