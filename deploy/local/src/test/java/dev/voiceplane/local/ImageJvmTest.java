package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageJvmTest {

    @Test
    void theLocalStackStartsAServiceWithTheImagesFlagsAndItsManifestsMemoryLimit() {
        LocalService credential = LocalService.plan(List.of("credential-service"), RepositoryFiles.home()).get(0);

        ImageJvm jvm = ImageJvm.of(RepositoryFiles.home(), credential).orElseThrow();

        List<String> imageFlags = List.of(kitProperty("quarkus.jib.jvm-arguments")
                .split(","));
        assertEquals(imageFlags, jvm.flags().subList(0, imageFlags.size()));
        long limit = ImageJvm.memoryLimitMiB(RepositoryFiles.kubernetesBase().resolve("credential-service.yaml"))
                .orElseThrow();
        assertEquals("-XX:MaxRAM=" + limit + "m", jvm.flags().get(jvm.flags().size() - 1));
        assertEquals(kitProperty("quarkus.jib.environment-variables.MALLOC_ARENA_MAX"),
                jvm.environment().get("MALLOC_ARENA_MAX"));

        Map<String, String> added = jvm.environmentOver(Map.of());
        assertEquals(String.join(" ", jvm.flags()), added.get(ImageJvm.OPTIONS_VARIABLE));
        assertEquals(jvm.environment().get("MALLOC_ARENA_MAX"), added.get("MALLOC_ARENA_MAX"));
    }

    /** The console has a manifest of its own now: the local stack runs it within its small limit, as a pod would. */
    @Test
    void theLocalStackStartsTheConsoleWithItsManifestsMemoryLimit() {
        LocalService console = LocalService.plan(List.of(LocalStack.CONSOLE), RepositoryFiles.home()).get(0);

        ImageJvm jvm = ImageJvm.of(RepositoryFiles.home(), console).orElseThrow();

        long limit = ImageJvm.memoryLimitMiB(RepositoryFiles.kubernetesBase().resolve("console.yaml")).orElseThrow();
        assertEquals(256L, limit);
        assertEquals("-XX:MaxRAM=256m", jvm.flags().get(jvm.flags().size() - 1));
    }

    private static String kitProperty(String name) {
        Properties kit = new Properties();
        try (Reader reader = Files.newBufferedReader(RepositoryFiles.home().resolve(ImageJvm.KIT_CONFIG))) {
            kit.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kit.getProperty(name);
    }

    @Test
    void whatTheCallerSetsWins() {
        ImageJvm jvm = new ImageJvm(List.of("-XX:+UseSerialGC", "-XX:MaxRAM=512m"), Map.of("MALLOC_ARENA_MAX", "2"));

        Map<String, String> added = jvm.environmentOver(
                Map.of(ImageJvm.OPTIONS_VARIABLE, "-XX:TieredStopAtLevel=1", "MALLOC_ARENA_MAX", "4"));

        assertTrue(added.isEmpty(), added.toString());
    }

    @Test
    void theMemoryLimitIsReadInMebibytes(@TempDir Path directory) throws IOException {
        Path mebibytes = Files.writeString(directory.resolve("a.yaml"), """
                          resources:
                            requests:
                              cpu: 250m
                              memory: 384Mi
                            limits:
                              cpu: "1"
                              memory: 512Mi
                """);
        Path gibibytes = Files.writeString(directory.resolve("b.yaml"), """
                            limits:
                              memory: 1Gi
                """);

        assertEquals(Optional.of(512L), ImageJvm.memoryLimitMiB(mebibytes));
        assertEquals(Optional.of(1024L), ImageJvm.memoryLimitMiB(gibibytes));
        assertEquals(Optional.empty(), ImageJvm.memoryLimitMiB(directory.resolve("missing.yaml")));
    }

    @Test
    void outsideACheckoutTheServicesKeepTheJvmsDefaults(@TempDir Path directory) {
        LocalService credential = LocalService.plan(List.of("credential-service"), directory).get(0);

        assertFalse(ImageJvm.of(directory, credential).isPresent());
    }
}
