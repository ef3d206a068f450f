package dev.voiceplane.runtime.provider;

/** One tool call of a model: its id, the function's name and its arguments as the model wrote them (JSON text). */
public record ToolCall(String id, String name, String arguments) {
}
