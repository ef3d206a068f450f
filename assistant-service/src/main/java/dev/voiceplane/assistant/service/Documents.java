package dev.voiceplane.assistant.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.kit.json.MergePatch;
import dev.voiceplane.kit.json.StoredJson;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The stored form of assistants and squads: the wire format's fields as JSON text (unset fields omitted,
 * free-form parts and numbers exactly as sent), with the customer's webhook secrets sealed in place
 * ({@link SealedFields}, bound to the row's context), and the PATCH rule applied to it.
 */
@ApplicationScoped
public class Documents {

    private final ObjectMapper json;
    private final MergePatch merge;
    private final SecretBox box;
    private final StoredJson stored;

    public Documents(ObjectMapper json, MergePatch merge, SecretBox box, StoredJson stored) {
        this.json = json;
        this.merge = merge;
        this.box = box;
        this.stored = stored;
    }

    /** The stored text of a validated body, its secrets sealed for the row {@code context}. */
    public String write(Object value, SealedFields secrets, String context) {
        ObjectNode tree = json.valueToTree(value);
        try {
            return json.writeValueAsString(secrets.seal(tree, box, context));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a validated body cannot be written as JSON", e);
        }
    }

    /**
     * Reads what was stored (it was validated when it was written), its secrets opened. A document that no longer
     * reads as its type answers what can be read instead of failing (see the kit's {@link StoredJson}).
     */
    public <T> T read(String document, Class<T> type, SealedFields secrets, String context) {
        return stored.read(open(document, secrets, context), type, context);
    }

    /** The stored document with a PATCH applied, read and validated as a request body would be (see {@link MergePatch}). */
    public <T> T patched(String document, ObjectNode patch, Class<T> type, SealedFields secrets, String context) {
        return merge.apply(open(document, secrets, context), patch, type);
    }

    private ObjectNode open(String document, SealedFields secrets, String context) {
        try {
            return secrets.open((ObjectNode) json.readTree(document), box, context);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("a stored document is not the JSON object it was written as", e);
        }
    }
}
