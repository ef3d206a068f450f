package dev.voiceplane.kit.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects every unknown property of a request body, with its path, instead of failing on the first one,
 * so that one 400 names them all ({@code "model.property foo should not exist"}). Outside a request body
 * (responses read by REST clients) unknown properties are skipped: other services may add fields.
 */
public final class UnknownProperties extends DeserializationProblemHandler {

    private static final ThreadLocal<List<String>> COLLECTED = new ThreadLocal<>();

    /** Starts collecting for the body read on this thread. */
    public static void begin() {
        COLLECTED.set(new ArrayList<>());
    }

    /** Stops collecting and returns what was found, in document order. */
    public static List<String> end() {
        List<String> found = COLLECTED.get();
        COLLECTED.remove();
        return found == null ? List.of() : found;
    }

    @Override
    public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser parser, JsonDeserializer<?> deserializer,
            Object beanOrClass, String propertyName) throws IOException {
        List<String> found = COLLECTED.get();
        if (found != null) {
            String path = JsonPaths.holderOf(parser, propertyName);
            String message = "property " + propertyName + " should not exist";
            found.add(path.isEmpty() ? message : path + "." + message);
        }
        parser.skipChildren();
        return true;
    }
}
