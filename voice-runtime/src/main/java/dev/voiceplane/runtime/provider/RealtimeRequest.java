package dev.voiceplane.runtime.provider;

import java.util.List;

/**
 * What a realtime session is opened with: the model id (sent as the assistant names it), the instructions (the
 * assistant's system messages, variables filled in), the tools offered, the voice (null: the model's default),
 * sampling settings, and the conversation so far (a squad hand-off's: user and assistant messages), which the model
 * is given before it hears the caller.
 */
public record RealtimeRequest(String model, String instructions, List<ToolSpec> tools, String voice,
        Double temperature, Integer maxOutputTokens, List<ChatMessage> conversation) {

    public RealtimeRequest {
        tools = tools == null ? List.of() : List.copyOf(tools);
        conversation = conversation == null ? List.of() : List.copyOf(conversation);
    }
}
