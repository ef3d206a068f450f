package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * The API's PATCH rule, for every resource stored as a JSON document: a field present in the patch replaces the
 * stored one whole (nested objects included), {@code null} removes it, a field absent from the patch stays. The
 * result is read and validated by {@link StrictReader} exactly as a request body would be (a 400 lists every
 * problem, with its path), so a PATCH can never store what a POST would refuse.
 */
@Singleton
public class MergePatch {

    private final ObjectMapper json;
    private final StrictReader strict;

    public MergePatch(ObjectMapper json, StrictReader strict) {
        this.json = json;
        this.strict = strict;
    }

    /** The stored document (JSON text of an object) with {@code patch} applied, as a validated {@code type}. */
    public <T> T apply(String document, ObjectNode patch, Class<T> type) {
        ObjectNode merged;
        try {
            merged = (ObjectNode) json.readTree(document);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored document is not the JSON object it was written as", e);
        }
        return apply(merged, patch, type);
    }

    /** The same for a document already read (it is changed in place). */
    public <T> T apply(ObjectNode document, ObjectNode patch, Class<T> type) {
        // A null stays in the merged document: read into the typed body it is the same as absent (and is not
        // written back), while an unknown property set to null is still reported like any unknown property.
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            document.set(field.getKey(), field.getValue());
        }
        return strict.read(document, type);
    }
}
