package dev.voiceplane.runtime.provider;

import java.util.List;

/**
 * One message of a model's context, in no vendor's format: {@code system}, {@code user}, {@code assistant} (which may
 * carry the tool calls it made; its {@code content} then may be null) or {@code tool} (the result of one call, by
 * {@code toolCallId}). Each model provider turns these into its own wire format.
 */
public record ChatMessage(String role, String content, List<ToolCall> toolCalls, String toolCallId) {

    public ChatMessage(String role, String content) {
        this(role, content, List.of(), null);
    }

    public ChatMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    /** The assistant's message asking for {@code calls}. */
    public static ChatMessage toolCalls(List<ToolCall> calls) {
        return new ChatMessage("assistant", null, calls, null);
    }

    /** The answer to the tool call {@code id}. */
    public static ChatMessage toolResult(String id, String result) {
        return new ChatMessage("tool", result, List.of(), id);
    }
}
