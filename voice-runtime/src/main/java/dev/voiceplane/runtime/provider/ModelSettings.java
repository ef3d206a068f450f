package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The assistant's {@code model}: provider, model id (sent as it is), fallback model ids, sampling settings, the
 * {@code custom-llm} URL, the prompt ({@code messages} with variables replaced), and the whole object as frozen into
 * the call ({@code raw}) for the settings only one vendor has.
 */
public record ModelSettings(String provider, String model, List<String> fallbackModels, Double temperature,
        Integer maxTokens, String url, List<ChatMessage> messages, JsonNode raw) {

    public ModelSettings {
        fallbackModels = fallbackModels == null ? List.of() : List.copyOf(fallbackModels);
        messages = messages == null ? List.of() : List.copyOf(messages);
    }
}
