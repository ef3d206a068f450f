package dev.voiceplane.runtime.provider;

import java.util.List;

/**
 * One completion asked of a model: the model id as the assistant names it ({@code model.model}, sent as it is), the
 * context, the tools offered (none when empty) and the assistant's sampling settings (null: the provider's default).
 */
public record ChatRequest(String model, List<ChatMessage> messages, List<ToolSpec> tools, Double temperature,
        Integer maxTokens) {

    public ChatRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    /** The same request of another model (a fallback). */
    public ChatRequest withModel(String other) {
        return new ChatRequest(other, messages, tools, temperature, maxTokens);
    }
}
