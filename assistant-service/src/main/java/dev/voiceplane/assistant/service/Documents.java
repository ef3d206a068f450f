package dev.voiceplane.assistant.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.json.StrictReader;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * The stored form of assistants and squads: the wire format's fields as JSON text (unset fields omitted,
 * free-form parts and numbers exactly as sent), and the PATCH rule applied to it.
 */
@ApplicationScoped
public class Documents {

    private final ObjectMapper json;
    private final StrictReader strict;

    public Documents(ObjectMapper json, StrictReader strict) {
        this.json = json;
        this.strict = strict;
    }

    public String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a validated body cannot be written as JSON", e);
        }
    }

    /** Reads what was stored; it was validated when it was written. */
    public <T> T read(String document, Class<T> type) {
        try {
            return json.readValue(document, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored document is not the JSON it was written as", e);
        }
    }

    /**
     * The stored document with a PATCH applied, read and validated as a request body would be (a 400 lists every
     * problem, with its path). A field present in the patch replaces the stored one whole, nested objects
     * included; {@code null} removes it; a field absent from the patch stays as it is.
     */
    public <T> T patched(String document, ObjectNode patch, Class<T> type) {
        ObjectNode merged;
        try {
            merged = (ObjectNode) json.readTree(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored document is not the JSON it was written as", e);
        }
        // A null stays in the merged document: read into the typed body it is the same as absent (and is not
        // written back), while an unknown property set to null is still reported like any unknown property.
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            merged.set(field.getKey(), field.getValue());
        }
        return strict.read(merged, type);
    }
}
