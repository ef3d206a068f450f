package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether extracted structured data has the shape of the assistant's {@code structuredDataSchema}: the JSON Schema
 * subset the era's schema object carries ({@code type}, {@code properties}, {@code items}, {@code required}).
 * Written here because that subset is all the schema object can express; a full JSON Schema library is not needed.
 */
final class StructuredData {

    private StructuredData() {
    }

    static boolean conforms(JsonNode value, JsonNode schema) {
        if (schema == null || !schema.isObject()) {
            return true;
        }
        String type = schema.path("type").asText("");
        boolean typed = switch (type) {
            case "string" -> value.isTextual();
            case "number" -> value.isNumber();
            case "integer" -> value.isIntegralNumber() || (value.isNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0);
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            default -> true;
        };
        if (!typed) {
            return false;
        }
        if (value.isObject()) {
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.asText())) {
                    return false;
                }
            }
            JsonNode properties = schema.path("properties");
            for (var property : value.properties()) {
                if (properties.has(property.getKey()) && !conforms(property.getValue(), properties.get(property.getKey()))) {
                    return false;
                }
            }
        }
        if (value.isArray() && schema.has("items")) {
            for (JsonNode item : value) {
                if (!conforms(item, schema.get("items"))) {
                    return false;
                }
            }
        }
        return true;
    }
}
