package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.local.IngressRoutes.Route;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IngressRoutesTest {

    private static final IngressRoutes MANIFEST = IngressRoutes.read(RepositoryFiles.ingress());

    @ParameterizedTest
    @CsvSource({
            "/assistant, assistant-service",
            "/assistant/5f0c6d1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f, assistant-service",
            "/squad, assistant-service",
            "/squad/abc, assistant-service",
            "/tool, assistant-service",
            "/tool/abc, assistant-service",
            "/call, call-service",
            "/call/abc, call-service",
            "/phone-number, telephony-service",
            "/phone-number/abc, telephony-service",
            "/phone-number/import/twilio, telephony-service",
            "/twilio/inbound_call, telephony-service",
            "/twilio/status, telephony-service",
            "/twilio/amd, telephony-service",
            "/vonage/answer, telephony-service",
            "/vonage/event, telephony-service",
            "/file, file-service",
            "/file/abc/content, file-service",
            "/credential, credential-service",
            "/credential/, credential-service",
            "/credential/abc, credential-service",
            "/media/stream, voice-runtime",
            "/media/web/5f0c6d1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f, voice-runtime",
            "/console, console",
            "/console/, console",
            "/console/console.js, console",
            "/console/web-call.html, console"
    })
    void theManifestRoutesEachPublicPathToItsService(String path, String service) {
        assertEquals(Optional.of(service), MANIFEST.serviceFor(path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/internal/credential/abc", "/internal/assistant/abc", "/q/health", "/q/health/ready",
            "/q/metrics", "/internal/phone-number/abc", "/twilios", "/vonage-x", "/credentials", "/credential-x", "/calls", "/files/abc", "/assistants", "/phone-numbers",
            "/medias", "/media-stream", "/consoles", "/console-x"})
    void theManifestRoutesNothingElse(String path) {
        assertEquals(Optional.empty(), MANIFEST.serviceFor(path));
    }

    @Test
    void theServicesAreTheBackendsOfTheManifest() {
        assertEquals(List.of("assistant-service", "call-service", "console", "credential-service", "file-service",
                "telephony-service", "voice-runtime"), MANIFEST.services());
    }

    @Test
    void aPrefixMatchesWholePathSegmentsOnly() {
        IngressRoutes routes = new IngressRoutes(List.of(new Route("/file", "file-service")));

        assertEquals(Optional.of("file-service"), routes.serviceFor("/file"));
        assertEquals(Optional.of("file-service"), routes.serviceFor("/file/"));
        assertEquals(Optional.of("file-service"), routes.serviceFor("/file/a/b"));
        assertEquals(Optional.empty(), routes.serviceFor("/files"));
        assertEquals(Optional.empty(), routes.serviceFor("/fil"));
    }

    @Test
    void aTrailingSlashInTheRuleDoesNotChangeWhatItMatches() {
        IngressRoutes routes = new IngressRoutes(List.of(new Route("/file/", "file-service")));

        assertEquals(Optional.of("file-service"), routes.serviceFor("/file"));
        assertEquals(Optional.of("file-service"), routes.serviceFor("/file/a"));
        assertEquals(Optional.empty(), routes.serviceFor("/files"));
    }

    @Test
    void theLongestMatchingPrefixWins() {
        IngressRoutes routes = new IngressRoutes(List.of(
                new Route("/", "fallback-service"),
                new Route("/file", "file-service"),
                new Route("/file/upload", "upload-service")));

        assertEquals(Optional.of("upload-service"), routes.serviceFor("/file/upload/big"));
        assertEquals(Optional.of("file-service"), routes.serviceFor("/file/uploads"));
        assertEquals(Optional.of("fallback-service"), routes.serviceFor("/other"));
    }

    @Test
    void onlyPrefixRulesAreAccepted(@TempDir Path directory) throws IOException {
        Path manifest = directory.resolve("ingress.yaml");
        Files.writeString(manifest, """
                apiVersion: networking.k8s.io/v1
                kind: Ingress
                metadata:
                  name: exact
                spec:
                  rules:
                    - http:
                        paths:
                          - path: /file
                            pathType: Exact
                            backend:
                              service:
                                name: file-service
                                port:
                                  name: http
                """);

        StackFailure failure = assertThrows(StackFailure.class, () -> IngressRoutes.read(manifest));
        assertTrue(failure.getMessage().contains("pathType Prefix"), failure.getMessage());
    }

    @Test
    void aFileThatIsNoIngressIsRejected(@TempDir Path directory) throws IOException {
        Path manifest = directory.resolve("service.yaml");
        Files.writeString(manifest, "apiVersion: v1\nkind: Service\nmetadata:\n  name: file-service\n");

        StackFailure failure = assertThrows(StackFailure.class, () -> IngressRoutes.read(manifest));
        assertTrue(failure.getMessage().contains("does not hold an Ingress"), failure.getMessage());
    }

    @Test
    void theLocalStackRoutesTheConsoleAsTheIngressDoes() {
        IngressRoutes local = LocalStack.routes(RepositoryFiles.home());

        assertEquals(MANIFEST.routes(), local.routes());
        assertEquals(Optional.of("console"), local.serviceFor("/console"));
        assertEquals(Optional.of("console"), local.serviceFor("/console/console.js"));
        assertEquals(Optional.empty(), local.serviceFor("/consoles"));
        assertTrue(local.services().contains("console"), local.services().toString());
        for (Route rule : MANIFEST.routes()) {
            assertEquals(Optional.of(rule.service()), local.serviceFor(rule.prefix()), rule.prefix());
        }
    }

    @Test
    void aRuleForAPrefixTheManifestRoutesAlreadyIsNotAdded() {
        IngressRoutes same = MANIFEST.with(new Route("/call", "elsewhere"));

        assertEquals(Optional.of("call-service"), same.serviceFor("/call/web"));
        assertEquals(MANIFEST.routes(), same.routes());
    }
}
