package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;

/**
 * A stored document that reads as its type exactly (see {@link StoredJson#asStored}), to be answered as it is,
 * with no binding to the typed records and no writing them again: the answer's fields stored with it (see
 * {@link StoredJson#answered}), copied to the answer as they are; or its parsed tree.
 */
public final class StoredDocument {

    private final ObjectNode document;
    private final DocumentShape shape;
    private final ObjectReader reader;
    /** The answer's fields as stored with the document (without the object's braces). */
    private final SerializedString fields;

    StoredDocument(ObjectNode document, DocumentShape shape) {
        this.document = document;
        this.shape = shape;
        this.reader = null;
        this.fields = null;
    }

    StoredDocument(String fields, ObjectReader reader) {
        this.document = null;
        this.shape = null;
        this.reader = reader;
        this.fields = new SerializedString(fields);
    }

    /** Writes the document's fields, in its type's order, into the object {@code generator} is writing. */
    public void writeFields(JsonGenerator generator, SerializerProvider provider) throws IOException {
        if (fields != null) {
            writeStoredFields(generator);
        } else {
            shape.writeFields(document, generator, provider);
        }
    }

    private void writeStoredFields(JsonGenerator generator) throws IOException {
        if (fields.getValue().isEmpty()) {
            return;
        }
        if (!(generator instanceof TokenBuffer) && generator.getPrettyPrinter() == null) {
            if (generator.getOutputContext().getEntryCount() > 0) {
                generator.writeRaw(',');
            }
            generator.writeRaw(fields);
            return;
        }
        // A generator that cannot take JSON text as it is (a token buffer, a pretty printer): field by field.
        try (JsonParser parser = reader.createParser("{" + fields.getValue() + "}")) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                generator.writeFieldName(parser.currentName());
                parser.nextToken();
                generator.copyCurrentStructure(parser);
            }
        }
    }
}
