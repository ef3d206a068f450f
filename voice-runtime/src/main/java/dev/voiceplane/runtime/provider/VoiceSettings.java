package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The assistant's {@code voice}: provider, voice id, speed, how the reply is cut for it ({@code inputMinCharacters},
 * {@code inputPunctuationBoundaries}), and the whole object as frozen into the call ({@code raw}) for the settings
 * only one vendor has ({@code voice.model}, a language, a style).
 */
public record VoiceSettings(String provider, String voiceId, Double speed, int inputMinCharacters,
        List<String> inputPunctuationBoundaries, JsonNode raw) {

    public VoiceSettings {
        inputPunctuationBoundaries = List.copyOf(inputPunctuationBoundaries);
    }

    /** A text field of the voice ({@code model}, {@code language}, ...), or {@code fallback}. */
    public String text(String field, String fallback) {
        JsonNode value = raw == null ? null : raw.path(field);
        return value != null && value.isTextual() && !value.asText().isBlank() ? value.asText() : fallback;
    }
}
