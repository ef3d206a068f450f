package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BaseJsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;

/**
 * The wire form of a type, worked out once from Jackson's own serializers: for each object its properties in the
 * order Jackson writes them, and for each property the JSON it holds. It answers two questions about a stored
 * document without binding it: does it read as the type exactly ({@link #fits}: every property the type knows
 * holds a non-null value of its JSON type; properties the type does not know are skipped, as the binding skips
 * them), and, if so, what would binding it and writing it again produce ({@link #writeFields}: the known properties
 * in the type's order, values as stored). Types it cannot describe (maps, enums, integers, dates, ...) never fit, so
 * their documents take the binding path.
 */
public final class DocumentShape {

    private sealed interface Value permits Text, Bool, Decimal, AnyJson, FreeObject, ArrayOf, Bean, Unsupported {
    }

    private record Text() implements Value {
    }

    private record Bool() implements Value {
    }

    private record Decimal() implements Value {
    }

    /** {@code JsonNode}: any non-null JSON, written as stored. */
    private record AnyJson() implements Value {
    }

    /** {@code ObjectNode}: any JSON object, written as stored. */
    private record FreeObject() implements Value {
    }

    private record ArrayOf(Value element) implements Value {
    }

    /** A record or class: filled in after construction, so that a type can contain itself. */
    private static final class Bean implements Value {
        final List<String> names = new ArrayList<>();
        final List<Value> values = new ArrayList<>();
        /** Where each name is in {@link #names}: one lookup per property a document has, not per property known. */
        final Map<String, Integer> positions = new HashMap<>();

        void add(String name, Value value) {
            positions.put(name, names.size());
            names.add(name);
            values.add(value);
        }
    }

    private record Unsupported() implements Value {
    }

    private final Bean root;

    private DocumentShape(Bean root) {
        this.root = root;
    }

    /** The shape of {@code type} as {@code mapper} writes it. */
    public static DocumentShape of(ObjectMapper mapper, Class<?> type) {
        Value value = describe(mapper.getSerializerProviderInstance(), mapper.constructType(type), new HashMap<>());
        if (!(value instanceof Bean bean)) {
            throw new IllegalArgumentException(type.getName() + " is not written as a JSON object");
        }
        return new DocumentShape(bean);
    }

    /**
     * The shape written out (each object's properties in order, each with the JSON it holds), to tell whether an
     * answer written under another version of the type would be written the same way now.
     */
    public String form() {
        StringBuilder form = new StringBuilder();
        form(root, form, new IdentityHashMap<>());
        return form.toString();
    }

    private static void form(Value value, StringBuilder form, Map<Bean, Integer> seen) {
        switch (value) {
            case Text text -> form.append('s');
            case Bool bool -> form.append('b');
            case Decimal decimal -> form.append('n');
            case AnyJson any -> form.append('*');
            case FreeObject object -> form.append('o');
            case Unsupported unsupported -> form.append('?');
            case ArrayOf array -> {
                form.append('[');
                form(array.element(), form, seen);
                form.append(']');
            }
            case Bean bean -> {
                Integer earlier = seen.get(bean);
                if (earlier != null) {
                    form.append('^').append(earlier); // a type that contains itself
                    return;
                }
                seen.put(bean, seen.size());
                form.append('{');
                for (int i = 0; i < bean.names.size(); i++) {
                    form.append(i == 0 ? "" : ",").append(bean.names.get(i).replace("\\", "\\\\").replace(":", "\\:"))
                            .append(':');
                    form(bean.values.get(i), form, seen);
                }
                form.append('}');
            }
        }
    }

    /** Whether the document reads as the type exactly, so that {@link #writeFields} answers what binding would. */
    public boolean fits(ObjectNode document) {
        return fits(root, document);
    }

    /** Writes the document's known properties, in the type's order, into the object {@code generator} is writing. */
    public void writeFields(ObjectNode document, JsonGenerator generator, SerializerProvider provider)
            throws IOException {
        writeFields(root, document, generator, provider);
    }

    private static Value describe(SerializerProvider provider, JavaType type, Map<Class<?>, Bean> seen) {
        Class<?> raw = type.getRawClass();
        if (raw == String.class) {
            return new Text();
        }
        if (raw == Boolean.class) {
            return new Bool();
        }
        if (raw == BigDecimal.class) {
            return new Decimal();
        }
        if (raw == ObjectNode.class) {
            return new FreeObject();
        }
        if (raw == JsonNode.class) {
            return new AnyJson();
        }
        if (type.isCollectionLikeType() && List.class.isAssignableFrom(raw) || raw == Collection.class) {
            return new ArrayOf(describe(provider, type.getContentType(), seen));
        }
        if (raw.isPrimitive() || raw.isEnum() || raw.isArray() || type.isMapLikeType() || raw.getName().startsWith("java.")
                || JsonNode.class.isAssignableFrom(raw)) {
            return new Unsupported();
        }
        Bean known = seen.get(raw);
        if (known != null) {
            return known;
        }
        JsonSerializer<Object> serializer;
        try {
            serializer = provider.findValueSerializer(type);
        } catch (JsonMappingException e) {
            return new Unsupported();
        }
        if (!(serializer instanceof BeanSerializerBase beanSerializer)) {
            return new Unsupported();
        }
        Bean bean = new Bean();
        seen.put(raw, bean);
        for (Iterator<PropertyWriter> properties = beanSerializer.properties(); properties.hasNext();) {
            PropertyWriter property = properties.next();
            if (!(property instanceof BeanPropertyWriter writer) || writer.isUnwrapping()
                    || writer.getSerializationType() != null && writer.getSerializationType() != writer.getType()) {
                return new Unsupported();
            }
            bean.add(writer.getName(), describe(provider, writer.getType(), seen));
        }
        return bean;
    }

    private static boolean fits(Value shape, JsonNode node) {
        if (node == null || node.isNull()) {
            return false;
        }
        return switch (shape) {
            case Text text -> node.isTextual();
            case Bool bool -> node.isBoolean();
            case Decimal decimal -> node.isNumber();
            case AnyJson any -> true;
            case FreeObject free -> node.isObject();
            case ArrayOf array -> node instanceof ArrayNode elements && allFit(array.element(), elements);
            case Bean bean -> node instanceof ObjectNode object && fits(bean, object);
            case Unsupported unsupported -> false;
        };
    }

    private static boolean allFit(Value element, ArrayNode elements) {
        for (JsonNode item : elements) {
            if (!fits(element, item)) {
                return false;
            }
        }
        return true;
    }

    private static boolean fits(Bean bean, ObjectNode object) {
        for (Entry<String, JsonNode> property : object.properties()) {
            Integer at = bean.positions.get(property.getKey());
            if (at != null && !fits(bean.values.get(at), property.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static void write(Value shape, JsonNode node, JsonGenerator generator, SerializerProvider provider)
            throws IOException {
        if (shape instanceof Bean bean) {
            generator.writeStartObject();
            writeFields(bean, (ObjectNode) node, generator, provider);
            generator.writeEndObject();
        } else if (shape instanceof ArrayOf array && array.element() instanceof Bean) {
            generator.writeStartArray();
            for (JsonNode item : node) {
                write(array.element(), item, generator, provider);
            }
            generator.writeEndArray();
        } else {
            // As the binding's JsonNode, String, Boolean and BigDecimal serializers write them, with the same features.
            ((BaseJsonNode) node).serialize(generator, provider);
        }
    }

    private static void writeFields(Bean bean, ObjectNode object, JsonGenerator generator, SerializerProvider provider)
            throws IOException {
        // The document's properties put in the type's order (a stored document has a few of the many it could have).
        JsonNode[] inOrder = new JsonNode[bean.names.size()];
        for (Entry<String, JsonNode> property : object.properties()) {
            Integer at = bean.positions.get(property.getKey());
            if (at != null) {
                inOrder[at] = property.getValue();
            }
        }
        for (int i = 0; i < inOrder.length; i++) {
            if (inOrder[i] != null) {
                generator.writeFieldName(bean.names.get(i));
                write(bean.values.get(i), inOrder[i], generator, provider);
            }
        }
    }
}
