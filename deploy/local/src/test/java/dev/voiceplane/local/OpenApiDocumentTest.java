package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The published OpenAPI document ({@code docs/openapi.yaml}) is the one the build merges from the services'
 * documents now, and it covers exactly what the Ingress routes.
 */
class OpenApiDocumentTest {

    private static final Path HOME = RepositoryFiles.home();
    private static final String REFRESH = "refresh it: ./mvnw -B -q package -DskipTests -Dvoice.images=false && "
            + "cp deploy/local/target/openapi.yaml docs/openapi.yaml";

    @Test
    void thePublishedDocumentIsTheMergedOne() throws IOException {
        String merged = OpenApiMerge.merge(HOME);
        Path published = HOME.resolve(OpenApiMerge.PUBLISHED);
        assertTrue(Files.isRegularFile(published), published + " is missing; " + REFRESH);
        assertEquals(merged, Files.readString(published), "docs/openapi.yaml is stale; " + REFRESH);
    }

    @Test
    void everyDocumentedPathIsRoutedAndNothingInternalIsDocumented() throws IOException {
        IngressRoutes routes = IngressRoutes.read(RepositoryFiles.ingress());
        List<OpenApiMerge.Operation> operations = OpenApiMerge.operations(
                Files.readString(HOME.resolve(OpenApiMerge.PUBLISHED)));
        assertFalse(operations.isEmpty());
        for (OpenApiMerge.Operation operation : operations) {
            String path = operation.path();
            assertTrue(routes.serviceFor(path).isPresent(), path + " is documented but not routed by the Ingress");
            assertFalse(path.startsWith("/internal") || path.startsWith("/q/"), path + " is not public");
        }
        for (IngressRoutes.Route route : routes.routes()) {
            boolean documented = operations.stream().map(OpenApiMerge.Operation::path).anyMatch(route::matches);
            if (route.service().equals(LocalStack.CONSOLE)) {
                // The console's pages and scripts are no API (ConsolePagesTest checks what they answer).
                assertFalse(documented, "the console's " + route.prefix() + " serves pages, not the API");
            } else {
                assertTrue(documented, "the Ingress routes " + route.prefix() + " but no route under it is documented");
            }
        }
    }

    /** What clients generate code from: creations answer 201, and every other answer is the error shape. */
    @Test
    void creationsAre201AndEveryOperationDocumentsTheErrorShape() throws IOException {
        JsonNode document = new ObjectMapper(new YAMLFactory()).readTree(HOME.resolve(OpenApiMerge.PUBLISHED).toFile());
        List<String> creations = List.of("/assistant", "/squad", "/tool", "/call", "/call/phone", "/call/web", "/credential",
                "/file", "/file/upload", "/phone-number", "/phone-number/import/{carrier}");
        for (String path : creations) {
            JsonNode responses = document.path("paths").path(path).path("post").path("responses");
            assertTrue(responses.has("201"), "POST " + path + " answers 201: " + responses);
            assertFalse(responses.has("200"), "POST " + path + " does not answer 200: " + responses);
        }
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                JsonNode responses = operation.getValue().path("responses");
                if (responses.has("101")) {
                    // The voice runtime's WebSockets (/media): an upgrade or a refusal, each refusal listed with its
                    // status and the error shape's fields, since there is no other answer for a default to cover.
                    responses.properties().stream().filter(answer -> !answer.getKey().equals("101")).forEach(answer -> {
                        JsonNode schema = answer.getValue().path("content").path("application/json").path("schema");
                        String ref = schema.path("$ref").asText();
                        JsonNode shape = ref.isEmpty() ? schema : document.at(ref.substring(1));
                        assertEquals(List.of("error", "message", "statusCode"),
                                shape.path("properties").propertyStream().map(Map.Entry::getKey).sorted().toList(),
                                answer.getKey() + " of " + operation.getKey() + " " + path.getKey()
                                        + " is the error shape");
                    });
                    continue;
                }
                assertEquals("#/components/schemas/Error", operation.getValue().path("responses").path("default")
                        .path("content").path("application/json").path("schema").path("$ref").asText(),
                        operation.getKey() + " " + path.getKey() + " documents the error shape as its other answers");
            }
        }
        JsonNode error = document.path("components").path("schemas").path("Error");
        assertEquals(List.of("message", "error", "statusCode"),
                new ObjectMapper().convertValue(error.path("required"), List.class));
    }
}
