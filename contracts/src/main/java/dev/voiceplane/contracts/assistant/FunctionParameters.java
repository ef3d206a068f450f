package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * The JSON Schema of a function's arguments: an object whose {@code properties} are free-form schemas, kept
 * exactly as sent.
 */
@RegisterForReflection
public record FunctionParameters(
        @NotNull @OneOf({"object"}) String type,
        ObjectNode properties,
        List<@NotNull String> required) {
}
