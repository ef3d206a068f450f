package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * A stored document that reads as its type exactly (see {@link StoredJson#asStored}), to be answered as it is,
 * with no binding to the typed records and no writing them again: either its parsed tree, or (for a read) its
 * stored text itself, scanned once ({@link StoredText}), whose values are copied to the answer.
 */
public final class StoredDocument {

    private final ObjectNode document;
    private final DocumentShape shape;
    private final byte[] text;
    private final StoredText.Scanned scanned;
    private final ObjectReader reader;

    StoredDocument(ObjectNode document, DocumentShape shape) {
        this.document = document;
        this.shape = shape;
        this.text = null;
        this.scanned = null;
        this.reader = null;
    }

    StoredDocument(byte[] text, StoredText.Scanned scanned, ObjectReader reader) {
        this.document = null;
        this.shape = null;
        this.text = text;
        this.scanned = scanned;
        this.reader = reader;
    }

    /** Writes the document's fields, in its type's order, into the object {@code generator} is writing. */
    public void writeFields(JsonGenerator generator, SerializerProvider provider) throws IOException {
        if (scanned != null) {
            StoredText.writeFields(text, scanned, generator, provider, reader);
        } else {
            shape.writeFields(document, generator, provider);
        }
    }
}
