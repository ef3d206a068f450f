package dev.voiceplane.runtime.provider;

import java.util.List;

/**
 * What a realtime session is opened with: the model id (sent as the assistant names it), the instructions (the
 * assistant's system messages, variables filled in), the tools offered, the voice (null: the model's default),
 * sampling settings, the conversation so far (a squad hand-off's: user and assistant messages), which the model
 * is given before it hears the caller, and who ends the caller's turns: the model's own voice detection, or, with
 * {@code runtimeTurns}, the runtime's ({@link RealtimeSession#callerStarted}, {@link RealtimeSession#callerEnded},
 * {@link RealtimeSession#callerDropped}).
 */
public record RealtimeRequest(String model, String instructions, List<ToolSpec> tools, String voice,
        Double temperature, Integer maxOutputTokens, List<ChatMessage> conversation, boolean runtimeTurns) {

    /** With the model's own voice detection. */
    public RealtimeRequest(String model, String instructions, List<ToolSpec> tools, String voice, Double temperature,
            Integer maxOutputTokens, List<ChatMessage> conversation) {
        this(model, instructions, tools, voice, temperature, maxOutputTokens, conversation, false);
    }

    public RealtimeRequest {
        tools = tools == null ? List.of() : List.copyOf(tools);
        conversation = conversation == null ? List.of() : List.copyOf(conversation);
    }
}
