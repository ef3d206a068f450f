package dev.voiceplane.runtime.provider.google;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/**
 * A tool's JSON Schema parameters as Gemini's {@code functionDeclarations[].parameters} takes them: the API's
 * {@code Schema} is a subset of OpenAPI 3.0, and it refuses the whole request (400) at a field it does not know
 * ({@code additionalProperties}, {@code $schema}, ...), at a string {@code format} other than {@code enum} and
 * {@code date-time}, and at an object whose {@code properties} are empty.
 *
 * <p>Passed through: {@code type}, {@code description}, {@code nullable}, {@code properties}, {@code required} (only
 * the names {@code properties} has), {@code items}, {@code anyOf}, {@code enum} (when every value is a string),
 * {@code minItems}, {@code maxItems}, {@code minimum}, {@code maximum}, and {@code format} where Gemini takes it
 * ({@code enum} and {@code date-time} for strings, {@code float}, {@code double}, {@code int32}, {@code int64} for
 * numbers). Rewritten: a {@code type} list such as {@code ["string","null"]} becomes the type and
 * {@code nullable: true}; {@code oneOf} becomes {@code anyOf}; a string {@code const} becomes a one-value
 * {@code enum}; a local {@code $ref} ({@code #/$defs/...}, {@code #/definitions/...}) is replaced by the schema it
 * names (followed {@value #MAX_DEPTH} levels deep at most, so a recursive schema is cut there). Stripped: everything
 * else ({@code additionalProperties}, {@code $schema}, {@code $id}, {@code $defs}, other references, {@code title},
 * {@code default}, {@code examples}, {@code pattern}, lengths, {@code allOf}, {@code not}, exclusive bounds,
 * {@code multipleOf}, other formats), an empty {@code properties}, and a property left without a type. A tool whose
 * parameters have no properties is declared without parameters.
 */
final class GeminiSchema {

    private static final Set<String> STRING_FORMATS = Set.of("enum", "date-time");
    private static final Set<String> NUMBER_FORMATS = Set.of("float", "double", "int32", "int64");
    /** How deep a schema is followed (references included): a recursive one is cut there. */
    private static final int MAX_DEPTH = 12;

    private GeminiSchema() {
    }

    /** The declaration's {@code parameters}, or null when the tool takes none. */
    static ObjectNode parameters(ObjectMapper json, JsonNode schema) {
        if (schema == null || !schema.isObject()) {
            return null;
        }
        ObjectNode converted = convert(json, schema, schema, 0);
        if (!converted.path("properties").isObject()) {
            return null;
        }
        converted.put("type", "object");
        return converted;
    }

    private static ObjectNode convert(ObjectMapper json, JsonNode schema, JsonNode root, int depth) {
        ObjectNode out = json.createObjectNode();
        if (depth > MAX_DEPTH) {
            return out;
        }
        String reference = schema.path("$ref").asText("");
        if (reference.startsWith("#/$defs/") || reference.startsWith("#/definitions/")) {
            JsonNode target = root.at(reference.substring(1));
            return target.isObject() ? convert(json, target, root, depth + 1) : out;
        }
        String type = null;
        JsonNode given = schema.path("type");
        if (given.isTextual()) {
            type = given.asText();
        } else if (given.isArray()) {
            for (JsonNode each : given) {
                if ("null".equals(each.asText())) {
                    out.put("nullable", true);
                } else if (type == null) {
                    type = each.asText();
                }
            }
        }
        if (type == null && schema.path("properties").isObject()) {
            type = "object";
        }
        if (type != null) {
            out.put("type", type);
        }
        if (schema.path("description").isTextual()) {
            out.put("description", schema.path("description").asText());
        }
        if (schema.path("nullable").isBoolean()) {
            out.put("nullable", schema.path("nullable").asBoolean());
        }
        String format = schema.path("format").asText(null);
        if (format != null && ("string".equals(type) && STRING_FORMATS.contains(format)
                || ("number".equals(type) || "integer".equals(type)) && NUMBER_FORMATS.contains(format))) {
            out.put("format", format);
        }
        JsonNode values = schema.path("enum");
        if (values.isArray() && !values.isEmpty() && allText(values)) {
            out.set("enum", values.deepCopy());
        } else if (schema.path("const").isTextual()) {
            out.putArray("enum").add(schema.path("const").asText());
        }
        JsonNode properties = schema.path("properties");
        if (properties.isObject() && !properties.isEmpty()) {
            ObjectNode converted = json.createObjectNode();
            for (Map.Entry<String, JsonNode> property : properties.properties()) {
                ObjectNode value = property.getValue().isObject()
                        ? convert(json, property.getValue(), root, depth + 1) : null;
                if (value != null && (value.has("type") || value.has("anyOf"))) {
                    converted.set(property.getKey(), value);
                }
            }
            if (!converted.isEmpty()) {
                out.set("properties", converted);
            }
            ArrayNode required = json.createArrayNode();
            for (JsonNode name : schema.path("required")) {
                if (name.isTextual() && converted.has(name.asText())) {
                    required.add(name.asText());
                }
            }
            if (!required.isEmpty()) {
                out.set("required", required);
            }
        }
        if (schema.path("items").isObject()) {
            out.set("items", convert(json, schema.path("items"), root, depth + 1));
        }
        JsonNode alternatives = schema.path("anyOf").isArray() ? schema.path("anyOf") : schema.path("oneOf");
        if (alternatives.isArray() && !alternatives.isEmpty()) {
            ArrayNode anyOf = out.putArray("anyOf");
            for (JsonNode alternative : alternatives) {
                if (alternative.isObject()) {
                    anyOf.add(convert(json, alternative, root, depth + 1));
                }
            }
        }
        for (String bound : new String[] {"minItems", "maxItems", "minimum", "maximum"}) {
            if (schema.path(bound).isNumber()) {
                out.set(bound, schema.path(bound));
            }
        }
        return out;
    }

    private static boolean allText(JsonNode values) {
        for (JsonNode value : values) {
            if (!value.isTextual()) {
                return false;
            }
        }
        return true;
    }
}
