package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The kustomize base, read as plain YAML: what every workload must have, and what the Ingress must never route. */
class KubernetesManifestsTest {

    /** The media plane: a Deployment like the services', without a database (its configuration turns it off). */
    static final String RUNTIME = "voice-runtime";
    /** The console's static pages (docs/console.md): a Deployment like the services', without a database either. */
    static final String CONSOLE = "console";

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
        Set<String> expected = new HashSet<>(LocalService.PORT_ORDER);
        expected.add(RUNTIME);
        expected.add(CONSOLE);
        assertEquals(expected, names("Deployment"));
    }

    @Test
    void theVoiceRuntimeAndTheConsoleAreTheOnlyDeploymentsWithoutADatabase() {
        Set<String> without = new TreeSet<>();
        names("Deployment").stream().filter(service -> !hasDatabase(service)).forEach(without::add);
        assertEquals(Set.of(RUNTIME, CONSOLE), without);
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
                    assertEquals(name(container) + "-keyset", variable.at("/valueFrom/secretKeyRef/name").asText(),
                            name(container));
                }
            }
        }
        assertEquals(Set.of("assistant-service", "call-service", "credential-service", "telephony-service"), holders);
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

    // ---- Added with the production manifests (issue 14) ----

    @Test
    void everyPodRunsAsTheImagesNumericUser() {
        String imageUser = kitConfig().getProperty("quarkus.jib.user");
        for (JsonNode deployment : ofKind("Deployment")) {
            JsonNode pod = deployment.at("/spec/template/spec/securityContext");
            assertEquals(imageUser, pod.path("runAsUser").asText() + ":" + pod.path("runAsGroup").asText(),
                    name(deployment));
            assertTrue(pod.path("runAsUser").asInt() >= 1000, name(deployment));
        }
    }

    @Test
    void everyContainerInitContainersIncludedHasAWritableTmpOnAReadOnlyFilesystem() {
        for (JsonNode deployment : ofKind("Deployment")) {
            JsonNode pod = deployment.at("/spec/template/spec");
            Set<String> emptyDirs = new HashSet<>();
            pod.path("volumes").forEach(volume -> {
                if (volume.has("emptyDir")) {
                    emptyDirs.add(volume.path("name").asText());
                }
            });
            List<JsonNode> all = new ArrayList<>();
            pod.path("initContainers").forEach(all::add);
            pod.path("containers").forEach(all::add);
            for (JsonNode container : all) {
                assertTrue(container.at("/securityContext/readOnlyRootFilesystem").asBoolean(), name(container));
                assertEquals("ALL", container.at("/securityContext/capabilities/drop/0").asText(), name(container));
                boolean tmp = false;
                for (JsonNode mount : container.path("volumeMounts")) {
                    tmp |= mount.path("mountPath").asText().equals("/tmp")
                            && emptyDirs.contains(mount.path("name").asText());
                }
                assertTrue(tmp, name(deployment) + "/" + name(container) + " has no emptyDir on /tmp");
            }
        }
    }

    @Test
    void aPodIsGivenTimeForPreStopShutdownDelayAndInFlightRequests() {
        Properties kit = kitConfig();
        assertEquals("true", kit.getProperty("quarkus.shutdown.delay-enabled"));
        for (JsonNode deployment : ofKind("Deployment")) {
            // A service's own application.properties overrides the kit's (voice-runtime drains live calls).
            Properties service = serviceConfig(name(deployment));
            Duration delay = duration(service.getProperty("quarkus.shutdown.delay",
                    kit.getProperty("quarkus.shutdown.delay")));
            Duration timeout = duration(service.getProperty("quarkus.shutdown.timeout",
                    kit.getProperty("quarkus.shutdown.timeout")));
            JsonNode pod = deployment.at("/spec/template/spec");
            JsonNode container = pod.at("/containers/0");
            int preStop = container.at("/lifecycle/preStop/sleep/seconds").asInt();
            assertTrue(preStop > 0, name(deployment) + " has no preStop sleep");
            long needed = preStop + delay.toSeconds() + timeout.toSeconds();
            assertTrue(pod.path("terminationGracePeriodSeconds").asLong() > needed,
                    name(deployment) + ": terminationGracePeriodSeconds must exceed " + needed);
            JsonNode strategy = deployment.at("/spec/strategy/rollingUpdate");
            assertEquals(0, strategy.path("maxUnavailable").asInt(), name(deployment));
        }
    }

    /**
     * The runtime drains its live calls after the HTTP layer's graceful phase (LiveCalls, on the shutdown event):
     * the pod's grace must cover the preStop sleep, the shutdown delay, that phase, the drain and the few seconds
     * to report the ends of calls still live. (The drain used to be put inside quarkus.shutdown.timeout, which made
     * every stop wait that long: the HTTP layer counts a WebSocket as a request that never completes.)
     */
    @Test
    void theRuntimesLiveCallsDrainWithinThePodsGrace() {
        Properties kit = kitConfig();
        Properties runtime = serviceConfig(RUNTIME);
        Duration drain = duration(runtime.getProperty("voice.runtime.drain-timeout"));
        Duration timeout = duration(runtime.getProperty("quarkus.shutdown.timeout"));
        Duration delay = duration(runtime.getProperty("quarkus.shutdown.delay", kit.getProperty("quarkus.shutdown.delay")));
        assertTrue(drain.toSeconds() >= 60, "calls are given minutes, not seconds, to finish: " + drain);
        assertTrue(timeout.compareTo(drain) < 0, "the HTTP layer's graceful phase " + timeout
                + " is not the calls' drain " + drain);
        JsonNode deployment = ofKind("Deployment").stream().filter(d -> RUNTIME.equals(name(d))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + RUNTIME + " Deployment"));
        JsonNode pod = deployment.at("/spec/template/spec");
        long needed = pod.at("/containers/0/lifecycle/preStop/sleep/seconds").asInt() + delay.toSeconds()
                + timeout.toSeconds() + drain.toSeconds() + 5;
        assertTrue(pod.path("terminationGracePeriodSeconds").asLong() > needed,
                RUNTIME + ": terminationGracePeriodSeconds must exceed " + needed + " so that the calls' ends are reported");
    }

    @Test
    void everyDeploymentSpreadsItsPodsOverNodesAndZones() {
        for (JsonNode deployment : ofKind("Deployment")) {
            Set<String> keys = new HashSet<>();
            for (JsonNode constraint : deployment.at("/spec/template/spec/topologySpreadConstraints")) {
                assertEquals(name(deployment), constraint.at("/labelSelector/matchLabels/app.kubernetes.io~1name")
                        .asText());
                keys.add(constraint.path("topologyKey").asText());
            }
            assertEquals(Set.of("kubernetes.io/hostname", "topology.kubernetes.io/zone"), keys, name(deployment));
        }
    }

    @Test
    void migrationsRunAsTheMigrationRoleAndTheServiceCannotMigrate() {
        for (JsonNode deployment : ofKind("Deployment")) {
            String service = name(deployment);
            if (!hasDatabase(service)) {
                continue; // theServiceWithoutADatabaseHasNoMigrationAndNoDatabaseSecret
            }
            JsonNode pod = deployment.at("/spec/template/spec");
            assertEquals(1, pod.path("initContainers").size(), service);
            JsonNode migrate = pod.at("/initContainers/0");
            JsonNode container = pod.at("/containers/0");
            assertEquals(container.path("image").asText(), migrate.path("image").asText(), service);
            Map<String, String> migrateEnv = environment(migrate);
            Map<String, String> serviceEnv = environment(container);
            assertEquals("true", migrateEnv.get("VOICE_DB_MIGRATE_ONLY"), service);
            assertEquals("true", migrateEnv.get("VOICE_DB_MIGRATE_AT_START"), service);
            assertEquals("secret " + service + "-db-migrator/username", migrateEnv.get("VOICE_DB_USER"), service);
            assertEquals("secret " + service + "-db-migrator/password", migrateEnv.get("VOICE_DB_PASSWORD"), service);
            assertEquals("false", serviceEnv.get("VOICE_DB_MIGRATE_AT_START"), service);
            assertEquals("secret " + service + "-db/username", serviceEnv.get("VOICE_DB_USER"), service);
            assertEquals("secret " + service + "-db/password", serviceEnv.get("VOICE_DB_PASSWORD"), service);
            assertFalse(serviceEnv.containsValue("secret " + service + "-db-migrator/password"), service);
        }
    }

    @Test
    void theServiceWithoutADatabaseHasNoMigrationAndNoDatabaseSecret() {
        int checked = 0;
        for (JsonNode deployment : ofKind("Deployment")) {
            String service = name(deployment);
            if (hasDatabase(service)) {
                continue;
            }
            JsonNode pod = deployment.at("/spec/template/spec");
            assertTrue(pod.path("initContainers").isMissingNode() || pod.path("initContainers").isEmpty(), service);
            for (JsonNode container : pod.path("containers")) {
                Map<String, String> env = environment(container);
                for (String variable : List.of("VOICE_DB_USER", "VOICE_DB_PASSWORD", "VOICE_DB_MIGRATE_AT_START",
                        "VOICE_DB_MIGRATE_ONLY")) {
                    assertFalse(env.containsKey(variable), service + " sets " + variable);
                }
                for (String value : env.values()) {
                    assertFalse(value.matches("secret .*-db(-migrator)?/.*"), service + " reads " + value);
                }
            }
            checked++;
        }
        assertEquals(2, checked);
    }

    @Test
    void theMediaTokenKeyIsSharedByItsIssuersAndTheRuntimeOnly() {
        Set<String> holders = new TreeSet<>();
        for (JsonNode container : containers()) {
            String key = environment(container).get("VOICE_MEDIA_TOKEN_KEY");
            if (key != null) {
                holders.add(name(container));
                assertEquals("secret voiceplane-media-token/VOICE_MEDIA_TOKEN_KEY", key, name(container));
            }
        }
        assertEquals(Set.of("call-service", "telephony-service", RUNTIME), holders);
    }

    @Test
    void theMediaWebSocketsAreRoutedToTheRuntimeWithoutAShortTimeout() throws IOException {
        IngressRoutes routes = IngressRoutes.read(RepositoryFiles.ingress());
        assertEquals(java.util.Optional.of(RUNTIME), routes.serviceFor("/media/stream"));
        assertEquals(java.util.Optional.of(RUNTIME), routes.serviceFor("/media/web/" + java.util.UUID.randomUUID()));
        // ingress-nginx closes a proxied WebSocket that is idle for its read or send timeout (60 s by default).
        JsonNode annotations = ofKind("Ingress").get(0).at("/metadata/annotations");
        for (String timeout : List.of("proxy-read-timeout", "proxy-send-timeout")) {
            assertTrue(annotations.path("nginx.ingress.kubernetes.io/" + timeout).asInt() >= 3600, timeout);
        }
        JsonNode route = new YAMLMapper().readTree(
                RepositoryFiles.kubernetes().resolve("components/gateway-api/httproute.yaml").toFile());
        List<JsonNode> media = new ArrayList<>();
        route.at("/spec/rules").forEach(rule -> {
            if (rule.at("/matches/0/path/value").asText().equals("/media")) {
                media.add(rule);
            }
        });
        assertEquals(1, media.size());
        assertEquals("0s", media.get(0).at("/timeouts/request").asText(), "a call may last longer than any timeout");
    }

    @Test
    void onlyTheServicesWithADatabaseMayReachPostgresql() throws IOException {
        List<JsonNode> policies = new ArrayList<>(ofKind("NetworkPolicy"));
        Path component = RepositoryFiles.kubernetes().resolve("components/cloudnative-pg/network-policy.yaml");
        try (MappingIterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class)
                .readValues(component.toFile())) {
            policies.addAll(documents.readAll());
        }
        for (JsonNode deployment : ofKind("Deployment")) {
            Map<String, String> labels = labels(deployment.at("/spec/template/metadata/labels"));
            boolean egress = false;
            boolean ingress = false;
            for (JsonNode policy : policies) {
                if (selects(policy.at("/spec/podSelector"), labels)) {
                    for (JsonNode rule : policy.at("/spec/egress")) {
                        egress |= opensPort(rule, 5432);
                    }
                }
                for (JsonNode rule : policy.at("/spec/ingress")) {
                    for (JsonNode peer : rule.path("from")) {
                        ingress |= opensPort(rule, 5432) && peer.has("podSelector") && !peer.has("namespaceSelector")
                                && selects(peer.path("podSelector"), labels);
                    }
                }
            }
            assertEquals(hasDatabase(name(deployment)), egress, name(deployment) + ": egress to port 5432");
            assertEquals(hasDatabase(name(deployment)), ingress,
                    name(deployment) + ": admitted by the in-cluster database (components/cloudnative-pg)");
        }
    }

    @Test
    void theServiceMonitorScrapesEveryServiceAndTheAlertsNameEveryWorkload() throws IOException {
        JsonNode monitor = new YAMLMapper().readTree(
                RepositoryFiles.kubernetes().resolve("components/monitoring/service-monitor.yaml").toFile());
        for (JsonNode service : ofKind("Service")) {
            assertTrue(selects(monitor.at("/spec/selector"), labels(service.at("/metadata/labels"))), name(service));
        }
        String rules = Files.readString(
                RepositoryFiles.kubernetes().resolve("components/monitoring/prometheus-rule.yaml"));
        Matcher matcher = Pattern.compile("(job|horizontalpodautoscaler|container)=~\"([^\"]+)\"").matcher(rules);
        int selectors = 0;
        while (matcher.find()) {
            selectors++;
            for (String workload : names("Deployment")) {
                assertTrue(workload.matches(matcher.group(2)), matcher.group() + " leaves out " + workload);
            }
        }
        assertTrue(selectors >= 3, rules);
        for (String metric : List.of("voice_runtime_provider_errors_total", "voice_runtime_media_refused_total",
                "voice_webhook_oldest_due_age_seconds", "voice_webhook_dead_letters_total")) {
            assertTrue(rules.contains(metric), "no alert on " + metric);
        }
    }

    @Test
    void theConsolesPagesAndAssetsAreRoutedToTheConsole() {
        IngressRoutes routes = IngressRoutes.read(RepositoryFiles.ingress());
        for (String path : List.of("/console", "/console/", "/console/console.js", "/console/web-call.html")) {
            assertEquals(java.util.Optional.of(CONSOLE), routes.serviceFor(path), path);
        }
        assertEquals(java.util.Optional.empty(), routes.serviceFor("/consoles"));
    }

    /**
     * The console serves files to browsers: the Ingress controller (the pages) and Prometheus (its metrics) reach it,
     * no other pod does, and it reaches nothing, not even DNS (it calls no service, database or collector).
     */
    @Test
    void theConsoleIsReachedByTheIngressControllerAndPrometheusOnlyAndReachesNothing() {
        JsonNode deployment = ofKind("Deployment").stream().filter(d -> CONSOLE.equals(name(d))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + CONSOLE + " Deployment"));
        Map<String, String> labels = labels(deployment.at("/spec/template/metadata/labels"));
        Set<String> from = new TreeSet<>();
        int egressRules = 0;
        boolean denied = false;
        for (JsonNode policy : ofKind("NetworkPolicy")) {
            if (!selects(policy.at("/spec/podSelector"), labels)) {
                continue;
            }
            for (JsonNode rule : policy.at("/spec/ingress")) {
                for (JsonNode peer : rule.path("from")) {
                    assertFalse(peer.has("podSelector"), name(policy) + " lets pods call the console: " + peer);
                    assertFalse(peer.has("ipBlock"), name(policy) + " lets addresses call the console: " + peer);
                    from.add(peer.at("/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText());
                }
            }
            egressRules += policy.at("/spec/egress").size();
            denied |= policy.at("/spec/policyTypes").toString().contains("Egress")
                    && policy.at("/spec/egress").isMissingNode();
        }
        assertEquals(Set.of("ingress-nginx", "monitoring"), from);
        assertTrue(denied, "no default-deny-egress selects the console");
        assertEquals(0, egressRules, "the console calls nothing, so no policy opens egress for it");
        Map<String, String> env = environment(deployment.at("/spec/template/spec/containers/0"));
        assertEquals("", env.get("VOICE_OTEL_ENDPOINT"), "no traces: the console has no egress to a collector");
        assertFalse(env.values().stream().anyMatch(value -> value.startsWith("secret ")), "the console reads no Secret");
    }

    @Test
    void theCarrierWebhooksAreRoutedToTelephonyService() {
        IngressRoutes routes = IngressRoutes.read(RepositoryFiles.ingress());
        assertEquals(java.util.Optional.of("telephony-service"), routes.serviceFor("/twilio/inbound_call"));
        assertEquals(java.util.Optional.of("telephony-service"), routes.serviceFor("/vonage/answer"));
    }

    @Test
    void theHttpRouteRoutesExactlyWhatTheIngressRoutes() throws IOException {
        Map<String, String> ingress = new TreeMap<>();
        for (JsonNode rule : ofKind("Ingress").get(0).at("/spec/rules")) {
            for (JsonNode path : rule.at("/http/paths")) {
                ingress.put(path.path("path").asText(), path.at("/backend/service/name").asText());
            }
        }
        JsonNode route = new YAMLMapper().readTree(
                RepositoryFiles.kubernetes().resolve("components/gateway-api/httproute.yaml").toFile());
        assertEquals("HTTPRoute", route.path("kind").asText());
        Map<String, String> httpRoute = new TreeMap<>();
        for (JsonNode rule : route.at("/spec/rules")) {
            assertEquals(1, rule.path("matches").size());
            assertEquals(1, rule.path("backendRefs").size());
            assertEquals("PathPrefix", rule.at("/matches/0/path/type").asText());
            assertEquals(80, rule.at("/backendRefs/0/port").asInt());
            httpRoute.put(rule.at("/matches/0/path/value").asText(), rule.at("/backendRefs/0/name").asText());
        }
        assertEquals(ingress, httpRoute);
    }

    @Test
    void egressIsDeniedUnlessAllowedAndOnlyCallTelephonyAndTheRuntimeReachTheInternet() {
        assertTrue(ofKind("NetworkPolicy").stream().anyMatch(policy -> policy.at("/spec/policyTypes/0").asText()
                .equals("Egress") && policy.at("/spec/egress").isMissingNode()
                && policy.at("/spec/podSelector/matchLabels/app.kubernetes.io~1part-of").asText().equals("voiceplane")));
        Set<String> internet = new TreeSet<>();
        for (JsonNode policy : ofKind("NetworkPolicy")) {
            for (JsonNode rule : policy.at("/spec/egress")) {
                for (JsonNode peer : rule.path("to")) {
                    if (peer.at("/ipBlock/cidr").asText().equals("0.0.0.0/0")) {
                        assertTrue(peer.at("/ipBlock/except").toString().contains("10.0.0.0/8"), name(policy));
                        assertTrue(peer.at("/ipBlock/except").toString().contains("169.254.0.0/16"), name(policy));
                        policy.at("/spec/podSelector/matchExpressions/0/values").forEach(v -> internet.add(v.asText()));
                        assertFalse(policy.at("/spec/podSelector/matchLabels").has("app.kubernetes.io/part-of"),
                                name(policy) + " must not open the internet to every service");
                    }
                }
            }
        }
        // The runtime's providers (Deepgram, the models, the voices) are on the internet.
        assertEquals(Set.of("call-service", "telephony-service", RUNTIME), internet);
    }

    @Test
    void theCallersPoliciesAndTheCallsPoliciesDescribeTheSameGraph() {
        assertEquals(callGraph("-callers"), callGraph("-calls"));
    }

    @Test
    void everyServiceMayCallTheServicesItsConfigurationNames() throws IOException {
        Map<String, Set<String>> allowed = callGraph("-calls");
        Pattern url = Pattern.compile("\\$\\{([A-Z]+)_SERVICE_URL");
        for (String service : names("Deployment")) {
            Path properties = RepositoryFiles.home().resolve(service).resolve("src/main/resources/application.properties");
            if (!Files.isRegularFile(properties)) {
                continue;
            }
            Matcher matcher = url.matcher(Files.readString(properties));
            while (matcher.find()) {
                String callee = matcher.group(1).toLowerCase() + "-service";
                assertTrue(allowed.getOrDefault(service, Set.of()).contains(callee), service + " calls " + callee
                        + " (its application.properties) but network-policies.yaml does not let it");
            }
        }
    }

    @Test
    void quarkusKubernetesOutputAgreesWithTheManifests() throws IOException {
        int compared = 0;
        for (JsonNode deployment : ofKind("Deployment")) {
            Path generated = RepositoryFiles.home().resolve(name(deployment)).resolve("target/kubernetes/kubernetes.yml");
            if (!Files.isRegularFile(generated)) {
                continue; // not built in this reactor (a service still to come, or -pl without it)
            }
            compared++;
            JsonNode ours = deployment.at("/spec/template/spec/containers/0");
            JsonNode theirs = null;
            JsonNode theirInitContainers = null;
            try (MappingIterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class)
                    .readValues(generated.toFile())) {
                for (JsonNode document : documents.readAll()) {
                    if (document.path("kind").asText().equals("Deployment")) {
                        theirs = document.at("/spec/template/spec/containers/0");
                        theirInitContainers = document.at("/spec/template/spec/initContainers");
                        assertEquals(name(deployment), document.at("/metadata/name").asText());
                        assertEquals("voiceplane", document.at("/metadata/labels/app.kubernetes.io~1part-of").asText());
                    }
                }
            }
            assertTrue(theirs != null, generated + " has no Deployment");
            assertEquals(ours.path("image").asText(), theirs.path("image").asText(), name(deployment));
            if (!hasDatabase(name(deployment))) {
                // Nothing to migrate: quarkus-kubernetes must not wait for a migration Job either.
                assertTrue(theirInitContainers.isMissingNode() || theirInitContainers.isEmpty(),
                        generated + " has init containers: " + theirInitContainers);
            }
            for (String probe : List.of("/readinessProbe/httpGet/path", "/livenessProbe/httpGet/path",
                    "/startupProbe/httpGet/path")) {
                assertEquals(ours.at(probe).asText(), theirs.at(probe).asText(), name(deployment) + probe);
            }
            assertEquals(ours.at("/ports/0/containerPort").asInt(), theirs.at("/ports/0/containerPort").asInt());
        }
        assertTrue(compared > 0,
                "no service's target/kubernetes/kubernetes.yml was found: build the services first");
    }

    @Test
    void everyBuiltImageIsNamedAsItsDeploymentAndRunsAsTheNumericUserWithAContainerAwareHeap() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse(Boolean.getBoolean("voice.images.skip"),
                "images not built (-Dvoice.images=false)");
        int checked = 0;
        for (JsonNode deployment : ofKind("Deployment")) {
            if (!Files.isRegularFile(RepositoryFiles.home().resolve(name(deployment))
                    .resolve("target/quarkus-app/quarkus-run.jar"))) {
                continue;
            }
            String image = deployment.at("/spec/template/spec/containers/0/image").asText();
            Path archive = RepositoryFiles.home().resolve("target/images")
                    .resolve(image.substring(image.lastIndexOf('/') + 1).replace(':', '-') + ".tar");
            assertTrue(Files.isRegularFile(archive), "no image archive " + archive + " for " + name(deployment));
            ImageArchive read = ImageArchive.read(archive);
            assertEquals(List.of(image), read.tags());
            assertEquals(kitConfig().getProperty("quarkus.jib.user"), read.config().at("/config/User").asText());
            String entrypoint = read.config().at("/config/Entrypoint").toString();
            assertTrue(entrypoint.contains("-XX:MaxRAMPercentage="), entrypoint);
            checked++;
        }
        assertTrue(checked > 0, "no built service");
    }

    /** caller -> callees, from the "<callee>-callers" (ingress) or "<caller>-calls" (egress) policies. */
    private static Map<String, Set<String>> callGraph(String suffix) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JsonNode policy : ofKind("NetworkPolicy")) {
            String policyName = name(policy);
            if (!policyName.endsWith(suffix)) {
                continue;
            }
            String subject = policyName.substring(0, policyName.length() - suffix.length());
            assertEquals(subject, policy.at("/spec/podSelector/matchLabels/app.kubernetes.io~1name").asText());
            JsonNode peers = suffix.equals("-callers") ? policy.at("/spec/ingress/0/from") : policy.at("/spec/egress/0/to");
            for (JsonNode peer : peers) {
                String other = peer.at("/podSelector/matchLabels/app.kubernetes.io~1name").asText();
                String caller = suffix.equals("-callers") ? other : subject;
                String callee = suffix.equals("-callers") ? subject : other;
                graph.computeIfAbsent(caller, key -> new TreeSet<>()).add(callee);
            }
        }
        assertFalse(graph.isEmpty(), suffix);
        return graph;
    }

    /** name -> value, or "secret name/key" for a value from a Secret. */
    private static Map<String, String> environment(JsonNode container) {
        Map<String, String> environment = new HashMap<>();
        for (JsonNode variable : container.path("env")) {
            JsonNode secret = variable.at("/valueFrom/secretKeyRef");
            environment.put(variable.path("name").asText(), secret.isMissingNode() ? variable.path("value").asText()
                    : "secret " + secret.path("name").asText() + "/" + secret.path("key").asText());
        }
        return environment;
    }

    /** Whether a service uses the database: one that turns its datasource off (voice-runtime, console) does not. */
    static boolean hasDatabase(String service) {
        return !"false".equals(serviceConfig(service).getProperty("quarkus.datasource.active"));
    }

    private static Properties serviceConfig(String service) {
        Properties properties = new Properties();
        Path file = RepositoryFiles.home().resolve(service).resolve("src/main/resources/application.properties");
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return properties;
    }

    /** {@code 630s} for {@code ${VOICE_SHUTDOWN_TIMEOUT:630s}}. */
    private static Duration duration(String expression) {
        return Duration.parse("PT" + defaultOf(expression).toUpperCase());
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> labels = new HashMap<>();
        node.properties().forEach(label -> labels.put(label.getKey(), label.getValue().asText()));
        return labels;
    }

    /** A Kubernetes label selector (matchLabels and matchExpressions), evaluated; an empty one selects everything. */
    private static boolean selects(JsonNode selector, Map<String, String> labels) {
        for (Map.Entry<String, JsonNode> label : selector.path("matchLabels").properties()) {
            if (!label.getValue().asText().equals(labels.get(label.getKey()))) {
                return false;
            }
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            String value = labels.get(expression.path("key").asText());
            Set<String> values = new HashSet<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            boolean matches = switch (expression.path("operator").asText()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("unknown operator in " + expression);
            };
            if (!matches) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a policy rule names the port. The internet rule names none: it opens public addresses only, and
     * PostgreSQL is reached at a private address or a pod (the PostgreSQL rules name their port).
     */
    private static boolean opensPort(JsonNode rule, int port) {
        for (JsonNode named : rule.path("ports")) {
            if (named.path("port").asInt() == port) {
                return true;
            }
        }
        return false;
    }

    private static Properties kitConfig() {
        Properties properties = new Properties();
        Path file = RepositoryFiles.home().resolve("service-kit/src/main/resources/META-INF/microprofile-config.properties");
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return properties;
    }

    /** {@code 5s} for {@code ${VOICE_SHUTDOWN_DELAY:5s}}. */
    private static String defaultOf(String expression) {
        Matcher matcher = Pattern.compile("\\$\\{[A-Z_]+:([^}]*)}").matcher(expression);
        return matcher.matches() ? matcher.group(1) : expression;
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
