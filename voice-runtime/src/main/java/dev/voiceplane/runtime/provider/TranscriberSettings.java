package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The assistant's {@code transcriber}: the fields every transcriber takes, and the whole object as frozen into the
 * call ({@code raw}) for the settings only one vendor has.
 */
public record TranscriberSettings(String provider, String model, String language, Boolean smartFormat,
        List<String> keywords, JsonNode raw) {

    public TranscriberSettings {
        keywords = keywords == null ? List.of() : List.copyOf(keywords);
    }

    /** {@code model} when the assistant names one, else the vendor's default. */
    public String modelOr(String fallback) {
        return model == null || model.isBlank() ? fallback : model;
    }
}
