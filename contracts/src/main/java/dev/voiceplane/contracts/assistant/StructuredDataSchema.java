package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * The JSON Schema of the structured data extracted from a call. {@code items} and {@code properties} are
 * free-form schemas, kept exactly as sent.
 */
@RegisterForReflection
public record StructuredDataSchema(
        @NotNull @OneOf({"string", "number", "integer", "boolean", "array", "object"}) String type,
        ObjectNode items,
        ObjectNode properties,
        String description,
        List<@NotNull String> required) {
}
