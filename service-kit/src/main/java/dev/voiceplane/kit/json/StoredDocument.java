package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * A stored document that reads as its type exactly (see {@link StoredJson#asStored}), to be answered as it is:
 * writing it costs what writing the tree costs, with no binding to the typed records and no writing them again.
 */
public final class StoredDocument {

    private final ObjectNode document;
    private final DocumentShape shape;

    StoredDocument(ObjectNode document, DocumentShape shape) {
        this.document = document;
        this.shape = shape;
    }

    /** Writes the document's fields, in its type's order, into the object {@code generator} is writing. */
    public void writeFields(JsonGenerator generator, SerializerProvider provider) throws IOException {
        shape.writeFields(document, generator, provider);
    }
}
