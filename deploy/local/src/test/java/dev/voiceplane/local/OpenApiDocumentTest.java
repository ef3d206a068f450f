package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
            assertTrue(operations.stream().map(OpenApiMerge.Operation::path).anyMatch(route::matches),
                    "the Ingress routes " + route.prefix() + " but no route under it is documented");
        }
    }
}
