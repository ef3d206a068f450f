package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The kustomize base, read as plain YAML: what every workload must have, and what the Ingress must never route. */
class KubernetesManifestsTest {

    private static List<JsonNode> resources;

    @BeforeAll
    static void readBase() throws IOException {
        resources = new ArrayList<>();
        YAMLMapper yaml = new YAMLMapper();
        try (Stream<Path> files = Files.list(RepositoryFiles.kubernetesBase())) {
            for (Path file : files.filter(path -> path.toString().endsWith(".yaml")).sorted().toList()) {
                try (MappingIterator<JsonNode> documents = yaml.readerFor(JsonNode.class).readValues(file.toFile())) {
                    documents.readAll().stream().filter(document -> document.has("kind")).forEach(resources::add);
                }
            }
        }
    }

    @Test
    void thereIsADeploymentForEachServiceOfTheLocalStack() {
        assertEquals(Set.copyOf(LocalService.PORT_ORDER), names("Deployment"));
    }

    @Test
    void everyDeploymentProbesTheHealthEndpoints() {
        for (JsonNode container : containers()) {
            assertEquals("/q/health/ready", container.at("/readinessProbe/httpGet/path").asText(), name(container));
            assertEquals("/q/health/live", container.at("/livenessProbe/httpGet/path").asText(), name(container));
            assertTrue(container.at("/startupProbe/httpGet/path").asText().startsWith("/q/health"), name(container));
        }
    }

    @Test
    void everyDeploymentRequestsAndLimitsCpuAndMemory() {
        for (JsonNode container : containers()) {
            for (String field : List.of("/resources/requests/cpu", "/resources/requests/memory",
                    "/resources/limits/cpu", "/resources/limits/memory")) {
                assertFalse(container.at(field).asText().isEmpty(), name(container) + " has no " + field);
            }
        }
    }

    @Test
    void everyDeploymentRunsAsNonRootOnAReadOnlyFilesystemWithoutCapabilities() {
        for (JsonNode deployment : ofKind("Deployment")) {
            JsonNode pod = deployment.at("/spec/template/spec");
            assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean(), name(deployment));
            assertEquals("RuntimeDefault", pod.at("/securityContext/seccompProfile/type").asText(), name(deployment));
            for (JsonNode container : pod.path("containers")) {
                assertTrue(container.at("/securityContext/readOnlyRootFilesystem").asBoolean(), name(container));
                assertFalse(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true), name(container));
                assertEquals("ALL", container.at("/securityContext/capabilities/drop/0").asText(), name(container));
            }
        }
    }

    @Test
    void onlyTheServicesThatSealSecretsHoldAKeysetEachFromItsOwnSecret() {
        Set<String> holders = new HashSet<>();
        for (JsonNode container : containers()) {
            for (JsonNode variable : container.path("env")) {
                if (variable.path("name").asText().equals("VOICE_ENCRYPTION_KEYSET")) {
                    holders.add(name(container));
                    assertEquals(name(container), variable.at("/valueFrom/secretKeyRef/name").asText(), name(container));
                }
            }
        }
        assertEquals(Set.of("credential-service", "telephony-service"), holders);
    }

    @Test
    void everyDeploymentHasAServiceAnAutoscalerAndADisruptionBudget() {
        Set<String> deployments = names("Deployment");
        assertEquals(deployments, names("Service"));
        assertEquals(deployments, names("HorizontalPodAutoscaler"));
        assertEquals(deployments, names("PodDisruptionBudget"));
    }

    @Test
    void theIngressRoutesNoInternalOrOperationsPath() {
        List<JsonNode> ingresses = ofKind("Ingress");
        assertEquals(1, ingresses.size());
        for (JsonNode rule : ingresses.get(0).at("/spec/rules")) {
            for (JsonNode path : rule.at("/http/paths")) {
                String prefix = path.path("path").asText();
                assertFalse(prefix.startsWith("/internal"), prefix);
                assertFalse(prefix.startsWith("/q"), prefix);
                assertFalse(prefix.equals("/"), "the Ingress must not route everything");
            }
        }
    }

    @Test
    void everyIngressBackendIsAService() {
        Set<String> backends = new HashSet<>();
        for (JsonNode rule : ofKind("Ingress").get(0).at("/spec/rules")) {
            for (JsonNode path : rule.at("/http/paths")) {
                backends.add(path.at("/backend/service/name").asText());
            }
        }
        assertEquals(names("Service"), backends);
    }

    @Test
    void allIngressIsDeniedUnlessAllowed() {
        assertTrue(ofKind("NetworkPolicy").stream().anyMatch(policy -> policy.at("/spec/podSelector").isEmpty()
                && policy.at("/spec/policyTypes/0").asText().equals("Ingress")
                && policy.at("/spec/ingress").isMissingNode()));
    }

    private static List<JsonNode> ofKind(String kind) {
        return resources.stream().filter(resource -> resource.path("kind").asText().equals(kind)).toList();
    }

    private static Set<String> names(String kind) {
        Set<String> names = new HashSet<>();
        ofKind(kind).forEach(resource -> names.add(name(resource)));
        return names;
    }

    private static List<JsonNode> containers() {
        List<JsonNode> containers = new ArrayList<>();
        ofKind("Deployment").forEach(deployment -> deployment.at("/spec/template/spec/containers").forEach(containers::add));
        assertFalse(containers.isEmpty());
        return containers;
    }

    /** A resource's name, or a container's. */
    private static String name(JsonNode node) {
        return node.has("metadata") ? node.at("/metadata/name").asText() : node.path("name").asText();
    }
}
