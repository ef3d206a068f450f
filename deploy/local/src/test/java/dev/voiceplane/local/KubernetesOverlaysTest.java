package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every overlay, rendered by kustomize and validated against the schemas of Kubernetes, the Gateway API and the
 * Prometheus operator; and broken copies, which must fail. This is what makes CI fail on a broken manifest.
 */
class KubernetesOverlaysTest {

    static Stream<String> overlays() throws IOException {
        try (Stream<Path> directories = Files.list(RepositoryFiles.kubernetes().resolve("overlays"))) {
            List<String> names = directories.filter(Files::isDirectory).map(path -> path.getFileName().toString())
                    .sorted().toList();
            assertTrue(names.containsAll(List.of("dev", "prod", "prod-gateway-api")), names.toString());
            return names.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void everyOverlayRendersAndValidates(String overlay) {
        String manifests = rendered(RepositoryFiles.kubernetes().resolve("overlays").resolve(overlay));

        Kubectl.Result validation = Kubectl.validate(manifests);

        assertTrue(validation.succeeded(), validation.output());
        assertTrue(validation.output().contains(" 0 invalid"), validation.output());
    }

    @Test
    void aCopyWithAWronglyTypedFieldFailsValidation(@TempDir Path copy) throws IOException {
        copyKubernetesDirectory(copy);
        Path manifest = copy.resolve("base/credential-service.yaml");
        Files.writeString(manifest, Files.readString(manifest).replace("containerPort: 8080", "containerPort: eighty"));

        Kubectl.Result validation = Kubectl.validate(rendered(copy.resolve("overlays/prod")));

        assertFalse(validation.succeeded(), validation.output());
        assertTrue(validation.output().contains("INVALID <stdin>: apps/v1/Deployment credential-service"),
                validation.output());
        assertTrue(validation.output().contains("containerPort"), validation.output());
    }

    @Test
    void aCopyWithAValueOutsideItsEnumerationFailsValidation(@TempDir Path copy) throws IOException {
        copyKubernetesDirectory(copy);
        Path manifest = copy.resolve("base/network-policies.yaml");
        Files.writeString(manifest, Files.readString(manifest).replaceFirst("    - Egress", "    - Outbound"));

        Kubectl.Result validation = Kubectl.validate(rendered(copy.resolve("overlays/dev")));

        assertFalse(validation.succeeded(), validation.output());
        assertTrue(validation.output().contains("INVALID <stdin>: networking.k8s.io/v1/NetworkPolicy"),
                validation.output());
    }

    @Test
    void aCopyWithAKindNoSchemaKnowsFailsValidation(@TempDir Path copy) throws IOException {
        copyKubernetesDirectory(copy);
        Path manifest = copy.resolve("base/ingress.yaml");
        Files.writeString(manifest, Files.readString(manifest).replace("kind: Ingress", "kind: Ingres"));

        Kubectl.Result validation = Kubectl.validate(rendered(copy.resolve("overlays/prod")));

        assertFalse(validation.succeeded(), validation.output());
        assertTrue(validation.output().contains("no schema knows networking.k8s.io/v1 Ingres"), validation.output());
    }

    @Test
    void aCopyThatDoesNotRenderFails(@TempDir Path copy) throws IOException {
        copyKubernetesDirectory(copy);
        Files.delete(copy.resolve("base/file-service.yaml"));

        Kubectl.Result rendering = Kubectl.kustomize(copy.resolve("overlays/dev"));

        assertFalse(rendering.succeeded(), rendering.output());
        assertTrue(rendering.output().contains("file-service.yaml"), rendering.output());
    }

    @Test
    void productionGeneratesNoSecretAndTheDevelopmentOverlayAllItNeeds() {
        for (String overlay : List.of("prod", "prod-gateway-api")) {
            assertEquals(List.of(), named(resources(overlay), "Secret"), overlay + " must not generate a Secret");
        }
        List<JsonNode> dev = resources("dev");
        Set<String> secrets = new HashSet<>(named(dev, "Secret"));
        Set<String> configMaps = new HashSet<>(named(dev, "ConfigMap"));
        Set<String> referencedSecrets = new HashSet<>();
        Set<String> referencedConfigMaps = new HashSet<>();
        for (JsonNode resource : dev) {
            collectReferences(resource, referencedSecrets, referencedConfigMaps);
        }
        assertFalse(referencedSecrets.isEmpty());
        assertTrue(secrets.containsAll(referencedSecrets), "dev references Secrets it does not generate: "
                + difference(referencedSecrets, secrets));
        assertTrue(configMaps.containsAll(referencedConfigMaps), "dev references ConfigMaps it does not generate: "
                + difference(referencedConfigMaps, configMaps));
    }

    @Test
    void generatedSecretsAndConfigMapsAreReferencedByTheirHashedNames() {
        // A changed value gives a new name, and so a new pod template: rotating a dev Secret rolls the pods.
        for (JsonNode resource : resources("dev")) {
            Set<String> secrets = new HashSet<>();
            Set<String> configMaps = new HashSet<>();
            collectReferences(resource, secrets, configMaps);
            for (String name : union(secrets, configMaps)) {
                assertTrue(name.matches(".*-[a-z0-9]{10}"), resource.at("/metadata/name").asText()
                        + " references " + name + " without its content hash");
            }
        }
    }

    @Test
    void theDevelopmentDatabaseHasAMigrationRoleAndAServiceRoleForEveryService() {
        List<JsonNode> dev = resources("dev");
        JsonNode cluster = dev.stream().filter(resource -> resource.path("kind").asText().equals("Cluster"))
                .findFirst().orElseThrow();
        Set<String> roles = new HashSet<>();
        Set<String> secrets = new HashSet<>(named(dev, "Secret"));
        for (JsonNode role : cluster.at("/spec/managed/roles")) {
            roles.add(role.path("name").asText());
            assertTrue(secrets.contains(role.at("/passwordSecret/name").asText()), role.toString());
        }
        for (String service : LocalService.PORT_ORDER) {
            if (!KubernetesManifestsTest.hasDatabase(service)) {
                continue; // voice-runtime: no schema, so no role (KubernetesManifestsTest checks it has no database)
            }
            String schema = service.substring(0, service.length() - "-service".length());
            assertTrue(roles.contains(schema + "_service"), roles.toString());
            assertTrue(roles.contains(schema + "_migrator"), roles.toString());
        }
        assertFalse(roles.stream().anyMatch(role -> role.startsWith("voice_")), "the runtime has no database role");
        String url = dev.stream().filter(resource -> resource.at("/metadata/name").asText().startsWith("voiceplane-")
                && resource.path("kind").asText().equals("ConfigMap") && resource.at("/data/VOICE_DB_URL").isTextual())
                .findFirst().orElseThrow().at("/data/VOICE_DB_URL").asText();
        assertEquals("jdbc:postgresql://" + cluster.at("/metadata/name").asText() + "-rw:5432/voiceplane", url);
    }

    /**
     * Every overlay ships the console as the base declares it: no init container (the patches for the migrate
     * containers must skip it, or the overlay would not render), no Secret, and its own small sizes (the dev and
     * native patches size the API services, not it).
     */
    @ParameterizedTest
    @MethodSource("overlays")
    void everyOverlayShipsTheConsoleWithoutInitContainerOrSecretAtItsOwnSize(String overlay) {
        JsonNode console = resources(overlay).stream()
                .filter(resource -> resource.path("kind").asText().equals("Deployment")
                        && resource.at("/metadata/name").asText().equals(KubernetesManifestsTest.CONSOLE))
                .findFirst().orElseThrow(() -> new AssertionError(overlay + " has no console Deployment"));
        JsonNode pod = console.at("/spec/template/spec");
        assertTrue(pod.path("initContainers").isMissingNode() || pod.path("initContainers").isEmpty(), overlay);
        Set<String> secrets = new HashSet<>();
        collectReferences(console, secrets, new HashSet<>());
        assertEquals(Set.of(), secrets, overlay);
        assertEquals("256Mi", pod.at("/containers/0/resources/limits/memory").asText(), overlay);
        assertEquals("192Mi", pod.at("/containers/0/resources/requests/memory").asText(), overlay);
        assertTrue(pod.at("/containers/0/image").asText().startsWith("ghcr.io/voiceplane/console:"), overlay);
    }

    private static List<JsonNode> resources(String overlay) {
        String manifests = rendered(RepositoryFiles.kubernetes().resolve("overlays").resolve(overlay));
        try (MappingIterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class).readValues(manifests)) {
            return documents.readAll().stream().filter(document -> document.has("kind")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String rendered(Path directory) {
        Kubectl.Result rendering = Kubectl.kustomize(directory);
        assertTrue(rendering.succeeded(), rendering.output());
        return rendering.output();
    }

    private static List<String> named(List<JsonNode> resources, String kind) {
        return resources.stream().filter(resource -> resource.path("kind").asText().equals(kind))
                .map(resource -> resource.at("/metadata/name").asText()).toList();
    }

    /** Names of the Secrets and ConfigMaps {@code node} refers to, anywhere in it. */
    private static void collectReferences(JsonNode node, Set<String> secrets, Set<String> configMaps) {
        if (node.isObject()) {
            node.properties().forEach(field -> {
                String key = field.getKey();
                JsonNode value = field.getValue();
                if ((key.equals("secretKeyRef") || key.equals("secretRef") || key.equals("passwordSecret"))
                        && value.has("name")) {
                    secrets.add(value.path("name").asText());
                } else if (key.equals("secret") && value.has("secretName")) {
                    secrets.add(value.path("secretName").asText());
                } else if ((key.equals("configMapKeyRef") || key.equals("configMapRef")) && value.has("name")) {
                    configMaps.add(value.path("name").asText());
                } else if (key.equals("configMapRefs")) {
                    value.forEach(reference -> configMaps.add(reference.path("name").asText()));
                }
                collectReferences(value, secrets, configMaps);
            });
        } else if (node.isArray()) {
            node.forEach(element -> collectReferences(element, secrets, configMaps));
        }
    }

    private static Set<String> difference(Set<String> all, Set<String> minus) {
        Set<String> rest = new HashSet<>(all);
        rest.removeAll(minus);
        return rest;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    /** deploy/k8s without the validator's node_modules. */
    private static void copyKubernetesDirectory(Path target) throws IOException {
        Path source = RepositoryFiles.kubernetes();
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(source)) {
            walk.filter(path -> !source.relativize(path).startsWith("validate")).forEach(paths::add);
        }
        for (Path path : paths) {
            Path destination = target.resolve(source.relativize(path).toString());
            if (Files.isDirectory(path)) {
                Files.createDirectories(destination);
            } else {
                Files.copy(path, destination);
            }
        }
    }
}
