package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.jboss.logging.Logger;

/**
 * Reads documents a service stored itself (jsonb columns). They were validated when written, and the reader's
 * limits are those the writer checks ({@link JsonLimits}), so they read back. Should one still not read as its type
 * (a row edited by hand, a document written under older rules), a single row must not take down every request that
 * touches it, let alone a whole organisation's list: the document is then read as far as it can be, each value that
 * does not fit its field is left out of the answer, and a warning names the problem. The stored text is never
 * changed by a read; a PATCH validates the stored document merged with the patch (a 400 names what is wrong, and
 * replacing those fields repairs it) and a DELETE removes the row as it is.
 */
@Singleton
public class StoredJson {

    private static final Logger LOG = Logger.getLogger(StoredJson.class);

    private final ObjectMapper mapper;
    private final ObjectMapper salvaging;
    private final ObjectReader storedReader;
    private final Map<Class<?>, DocumentShape> shapes = new ConcurrentHashMap<>();
    private final Map<Class<?>, Long> forms = new ConcurrentHashMap<>();

    public StoredJson(ObjectMapper mapper) {
        this.mapper = mapper;
        this.salvaging = mapper.copy()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .addHandler(new LeaveOut());
        this.storedReader = mapper.reader().without(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /**
     * Parses a stored document. A jsonb document has no duplicate keys, so the parser's own check (a set of the names
     * of every object, a few percent of a list's time) is left out; the tree's check still refuses one.
     */
    public JsonNode parse(String document) throws JsonProcessingException {
        return storedReader.readTree(document);
    }

    /**
     * The stored document (secrets opened, say) to be answered as it is, when it reads as {@code type} exactly:
     * then what it answers is what {@link #read} and writing the value again would answer, at a fraction of the
     * cost. Empty when it does not (a value of another JSON type, a {@code null}, a type the shape cannot
     * describe): the caller then answers {@link #read}'s value, with its rule for what does not fit.
     */
    public Optional<StoredDocument> asStored(ObjectNode document, Class<?> type) {
        DocumentShape shape = shape(type);
        return shape.fits(document) ? Optional.of(new StoredDocument(document, shape)) : Optional.empty();
    }

    /**
     * A number for how {@code type} is answered now (a checksum of {@link DocumentShape#form}): an answer stored with
     * its document under another form (an older version of the type, say) is not answered as it is.
     */
    public long form(Class<?> type) {
        return forms.computeIfAbsent(type, key -> {
            CRC32C checksum = new CRC32C();
            checksum.update(shape(key).form().getBytes(StandardCharsets.UTF_8));
            return checksum.getValue();
        });
    }

    /** An answer's fields stored with its document, of the current {@link #form}: answered as they are. */
    public StoredDocument answered(String fields) {
        return new StoredDocument(fields, storedReader);
    }

    private DocumentShape shape(Class<?> type) {
        return shapes.computeIfAbsent(type, key -> DocumentShape.of(mapper, key));
    }

    /** The stored document as {@code type}; {@code what} names the row in the warning when it has to be salvaged. */
    public <T> T read(String document, Class<T> type, String what) {
        JsonNode tree;
        try {
            tree = parse(document);
        } catch (JsonProcessingException e) {
            LOG.warnf("stored %s is not JSON the reader takes (%s); answering its common fields only", what,
                    e.getMessage());
            return empty(type);
        }
        return read(tree, type, what);
    }

    /** The stored document, already parsed (secrets opened, say), as {@code type}; never fails. */
    public <T> T read(JsonNode document, Class<T> type, String what) {
        try {
            return mapper.treeToValue(document, type);
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.warnf("stored %s does not read as %s (%s); answering what can be read", what, type.getSimpleName(),
                    e.getMessage());
        }
        try {
            return salvaging.treeToValue(document, type);
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.warnf("stored %s cannot be read at all (%s); answering its common fields only", what, e.getMessage());
        }
        return empty(type);
    }

    private <T> T empty(Class<T> type) {
        try {
            return salvaging.readValue("{}", type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(type.getName() + " cannot be read from an empty object", e);
        }
    }

    /** Turns each value that does not fit its field into "absent". */
    private static final class LeaveOut extends DeserializationProblemHandler {

        @Override
        public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, JsonDeserializer<?> deserializer,
                Object beanOrClass, String propertyName) throws IOException {
            p.skipChildren();
            return true;
        }

        @Override
        public Object handleUnexpectedToken(DeserializationContext ctxt, JavaType targetType, JsonToken t, JsonParser p,
                String failureMsg) throws IOException {
            p.skipChildren();
            return null;
        }

        @Override
        public Object handleWeirdStringValue(DeserializationContext ctxt, Class<?> targetType, String valueToConvert,
                String failureMsg) {
            return null;
        }

        @Override
        public Object handleWeirdNumberValue(DeserializationContext ctxt, Class<?> targetType, Number valueToConvert,
                String failureMsg) {
            return null;
        }

        @Override
        public Object handleInstantiationProblem(DeserializationContext ctxt, Class<?> instClass, Object argument,
                Throwable t) {
            return null;
        }

        @Override
        public Object handleMissingInstantiator(DeserializationContext ctxt, Class<?> instClass,
                ValueInstantiator valueInsta, JsonParser p, String msg) throws IOException {
            p.skipChildren();
            return null;
        }
    }
}
