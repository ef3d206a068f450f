package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A function offered to a model: its name, what it does, and its parameters as a JSON Schema object (null when it
 * takes none). Each model provider writes it in its own format (OpenAI's {@code tools[].function}, Anthropic's
 * {@code input_schema}, Gemini's {@code functionDeclarations}).
 */
public record ToolSpec(String name, String description, JsonNode parameters) {
}
