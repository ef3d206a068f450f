package dev.voiceplane.assistant.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.NameTransformer;
import dev.voiceplane.kit.json.JsonConventions;
import dev.voiceplane.kit.json.StoredDocument;
import dev.voiceplane.kit.json.WrittenDocument;
import java.io.IOException;
import java.time.Instant;
import java.util.function.Function;

/**
 * A resource returned as a document of its type ({@link AssistantView}, {@link ToolView}): the common fields, then
 * the stored document as it is ({@code stored}), or the text just stored ({@code written}), or else the typed
 * document written by its own serializer, unwrapped. The records' accessors are this interface's methods.
 */
interface DocumentView {

    String id();

    String orgId();

    Instant createdAt();

    Instant updatedAt();

    StoredDocument stored();

    WrittenDocument written();

    /** Writes a {@code V} whose typed document is a {@code D}, read from the view by {@code document}. */
    abstract class Writer<V extends DocumentView, D> extends StdSerializer<V> {

        private final Class<D> type;
        private final Function<V, D> document;

        Writer(Class<V> view, Class<D> type, Function<V, D> document) {
            super(view);
            this.type = type;
            this.document = document;
        }

        @Override
        public final void serialize(V view, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeStartObject(view);
            JsonConventions.writeResourceFields(generator, view.id(), view.orgId(), view.createdAt(), view.updatedAt());
            D typed = document.apply(view);
            if (view.stored() != null) {
                view.stored().writeFields(generator, provider);
            } else if (view.written() != null && view.written().writeFields(generator)) {
                // the text just stored: what writing the typed document would give
            } else if (typed != null) {
                provider.findValueSerializer(type).unwrappingSerializer(NameTransformer.NOP)
                        .serialize(typed, generator, provider);
            }
            generator.writeEndObject();
        }
    }
}
