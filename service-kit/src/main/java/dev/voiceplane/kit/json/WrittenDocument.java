package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.crypto.SecretBox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A validated request body as it is stored and as the write answers it, from one serialisation of the typed value:
 * {@link #stored()} is the text for the jsonb column, secrets sealed for the row; {@link #writeFields} copies the
 * same text, secrets open (the owner gets them back as sent), into the answer, instead of serialising the value a
 * second time. A body with no value at a secret's path (the common case) is stored as that very text; one with
 * secrets is sealed in a tree as before.
 */
public final class WrittenDocument {

    private final String stored;
    /** The members of the written object, without its braces ("" for an empty object). */
    private final Members members;

    private WrittenDocument(String stored, Members members) {
        this.stored = stored;
        this.members = members;
    }

    /** Writes {@code value} (a validated body, a JSON object) with {@code json}; secrets sealed for the row {@code context}. */
    public static WrittenDocument of(ObjectMapper json, Object value, SealedFields secrets, SecretBox box, String context) {
        try {
            // As bytes, by the generator an answer is written with (which, unlike a String's, escapes a character
            // outside the BMP as its two UTF-16 units): the answer is then byte for byte what writing the value gives.
            byte[] utf8 = json.writeValueAsBytes(value);
            if (utf8.length < 2 || utf8[0] != '{' || utf8[utf8.length - 1] != '}') {
                throw new IllegalArgumentException(value.getClass().getName() + " is not written as a JSON object");
            }
            String text = new String(utf8, StandardCharsets.UTF_8);
            Members members = new Members(text.substring(1, text.length() - 1),
                    Arrays.copyOfRange(utf8, 1, utf8.length - 1));
            if (!mayHoldSecrets(text, secrets)) {
                return new WrittenDocument(text, members);
            }
            ObjectNode tree = json.valueToTree(value);
            return new WrittenDocument(json.writeValueAsString(secrets.seal(tree, box, context)), members);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a validated body cannot be written as JSON", e);
        }
    }

    /** The body's fields as written, secrets open, without the object's braces. */
    public String fields() {
        return members.getValue();
    }

    /** The text to store: the body's fields, unset ones omitted, secrets sealed. */
    public String stored() {
        return stored;
    }

    /**
     * Writes the body's fields, as serialised, into the object {@code generator} is writing (after what it wrote
     * already). False, with nothing written, when the generator cannot take JSON text as it is (a token buffer, a
     * pretty printer): the caller then writes the typed value.
     */
    public boolean writeFields(JsonGenerator generator) throws IOException {
        if (generator instanceof TokenBuffer || generator.getPrettyPrinter() != null) {
            return false;
        }
        if (!members.getValue().isEmpty()) {
            if (generator.getOutputContext().getEntryCount() > 0) {
                generator.writeRaw(',');
            }
            generator.writeRaw(members);
        }
        return true;
    }

    /** JSON text to copy into an answer as it is; its UTF-8 bytes are those it was written as, not encoded again. */
    private static final class Members extends SerializedString {

        Members(String text, byte[] utf8) {
            super(text);
            _unquotedUTF8Ref = utf8;
        }
    }

    /**
     * Whether a secret's field name occurs in the text at all. A secret sits at a path whose last step is a field
     * name, which Jackson writes as {@code "name"}; when no such text occurs there is nothing to seal. When it occurs
     * (also as a value, or elsewhere in free-form JSON) the tree is sealed, which finds the real ones.
     */
    private static boolean mayHoldSecrets(String text, SealedFields secrets) {
        for (String path : secrets.paths()) {
            String field = path.substring(path.lastIndexOf('.') + 1);
            if (text.contains("\"" + field + "\"")) {
                return true;
            }
        }
        return false;
    }
}
