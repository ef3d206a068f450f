package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Renders Jackson locations as the dotted paths used in error messages ({@code model.tools.0.type}). */
public final class JsonPaths {

    private JsonPaths() {
    }

    public static String of(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            String segment = reference.getFieldName() != null
                    ? reference.getFieldName()
                    : reference.getIndex() >= 0 ? Integer.toString(reference.getIndex()) : null;
            if (segment == null) {
                continue;
            }
            if (!path.isEmpty()) {
                path.append('.');
            }
            path.append(segment);
        }
        return path.toString();
    }

    /**
     * The path of the object that holds property {@code name}. The parser may be anywhere inside that
     * property's value (Jackson may already have consumed part of it), so the holder is found as the
     * enclosing object whose current property is {@code name}.
     */
    public static String holderOf(JsonParser parser, String name) {
        JsonStreamContext holder = parser.getParsingContext();
        while (holder != null && !name.equals(holder.getCurrentName())) {
            holder = holder.getParent();
        }
        if (holder == null) {
            return "";
        }
        // A buffered-token parser names a value's own context after the property too: take the outermost.
        while (holder.getParent() != null && name.equals(holder.getParent().getCurrentName())) {
            holder = holder.getParent();
        }
        List<String> segments = new java.util.ArrayList<>();
        for (JsonPointer pointer = holder.pathAsPointer(); pointer != null && !pointer.matches(); pointer = pointer.tail()) {
            segments.add(pointer.mayMatchProperty() ? pointer.getMatchingProperty()
                    : Integer.toString(pointer.getMatchingIndex()));
        }
        // The holder's pointer ends at its current property, which is the unknown one.
        if (!segments.isEmpty() && name.equals(segments.getLast())) {
            segments.removeLast();
        }
        return String.join(".", segments);
    }

    public static String prefix(List<JsonMappingException.Reference> references, String message) {
        String path = of(references);
        return path.isEmpty() ? message : path + " " + message;
    }

    /** {@code "model.temperature must be a number"}: what a client needs to fix a wrongly typed value. */
    public static String describe(MismatchedInputException e) {
        String path = of(e.getPath());
        String expected = expectedType(e.getTargetType());
        String subject = path.isEmpty() ? "request body" : path;
        return subject + " must be " + expected;
    }

    private static String expectedType(Class<?> type) {
        if (type == null) {
            return "of the documented type";
        }
        if (CharSequence.class.isAssignableFrom(type) || type.isEnum()) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean value";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer number";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (type == java.time.Instant.class || type == java.time.OffsetDateTime.class) {
            return "an ISO 8601 date-time string";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord() || !type.getName().startsWith("java.")) {
            return "an object";
        }
        return "of the documented type";
    }
}
