package dev.voiceplane.contracts.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The model's calls of function tools the voice runtime asks call-service to send to their server
 * ({@code POST /internal/call/{id}/runtime/tool-calls}, docs/calls.md): each names a function tool of the call's
 * frozen assistant by {@code function.name}; {@code arguments} are the model's (a JSON object, or the text it wrote).
 */
@RegisterForReflection
public record ToolCallsRequest(@NotNull @Size(min = 1, max = 16) List<@NotNull @Valid ToolCall> toolCallList) {

    @RegisterForReflection
    public record ToolCall(@NotBlank @Size(max = 200) String id, @OneOf({"function"}) String type,
            @NotNull @Valid Function function) {
    }

    @RegisterForReflection
    public record Function(@NotBlank @Size(max = 64) String name, JsonNode arguments) {
    }
}
