package dev.voiceplane.assistant.rest;

import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field of the maximal assistant, given a value of another JSON type, is a 400 naming the field and the
 * type it takes. Free-form parts are only checked for being objects; what is inside them is any JSON.
 */
@QuarkusTest
class AssistantFieldTypesTest {

    /** Free-form parts: the part itself has a type, its content is anything. */
    private static final Set<String> FREE_FORM = Set.of("/metadata", "/model/tools/0/function/parameters/properties",
            "/analysisPlan/structuredDataSchema/items", "/analysisPlan/structuredDataSchema/properties");
    static Stream<Arguments> fields() {
        JsonNode maximal = Clients.tree(Bodies.maximalAssistant("0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d01",
                "0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d02", "0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d22"));
        List<Arguments> fields = new ArrayList<>();
        collect(maximal, "", fields);
        return fields.stream();
    }

    private static void collect(JsonNode node, String pointer, List<Arguments> into) {
        if (!pointer.isEmpty()) {
            into.add(Arguments.of(pointer, expectedType(node)));
        }
        if (FREE_FORM.contains(pointer)) {
            return;
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                // A condition's value is any JSON: no type to get wrong.
                if (!field.getKey().equals("value")) {
                    collect(field.getValue(), pointer + "/" + field.getKey(), into);
                }
            }
        } else if (node.isArray() && !node.isEmpty()) {
            collect(node.get(0), pointer + "/0", into);
        }
    }

    private static String expectedType(JsonNode node) {
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isBoolean()) {
            return "a boolean value";
        }
        if (node.isNumber()) {
            return "a number";
        }
        return node.isArray() ? "an array" : "an object";
    }

    @ParameterizedTest(name = "{0} must be {1}")
    @MethodSource("fields")
    void aValueOfAnotherTypeIsRejected(String pointer, String type) {
        ObjectNode body = (ObjectNode) Clients.tree(Bodies.maximalAssistant("0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d01",
                "0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d02", "0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d22"));
        JsonNode wrong = switch (type) {
            case "a string" -> Clients.tree("1");
            case "a number", "a boolean value", "an array", "an object" -> TextNode.valueOf("1");
            default -> throw new IllegalArgumentException(type);
        };
        replace(body, pointer, wrong);
        String path = pointer.substring(1).replace('/', '.');
        orgA().body(body.toString()).when().post("/assistant")
                .then().statusCode(400)
                .body("message", contains(path + " must be " + type));
    }

    private static void replace(ObjectNode root, String pointer, JsonNode value) {
        int cut = pointer.lastIndexOf('/');
        JsonNode parent = root.at(pointer.substring(0, cut));
        String last = pointer.substring(cut + 1);
        if (parent instanceof ArrayNode array) {
            array.set(Integer.parseInt(last), value);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
    }
}
