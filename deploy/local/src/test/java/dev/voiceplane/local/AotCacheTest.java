package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotCacheTest {

    private static final Runtime.Version JDK = Runtime.Version.parse("25.0.3+9");

    @TempDir
    Path build;

    @Test
    void beforeJdk25ThereIsNoCache() {
        assertTrue(AotCache.of(build, Runtime.Version.parse("21.0.8")).isEmpty());
    }

    @Test
    void theFirstStartRecordsAndTheCacheIsKeptOnlyAfterItsCleanExit() throws IOException {
        Files.writeString(build.resolve("quarkus-run.jar"), "jar");
        AotCache cache = AotCache.of(build, JDK).orElseThrow();

        List<String> flags = cache.jvmFlags();
        assertTrue(cache.records());
        String output = flags.get(0).substring("-XX:AOTCacheOutput=".length());
        assertTrue(flags.get(0).startsWith("-XX:AOTCacheOutput="), flags.toString());
        assertFalse(Files.exists(cache.file()), "nothing is in place before the recording start has stopped");

        Files.writeString(Path.of(output), "cache"); // what the JVM writes when the service stops
        cache.keepRecording();

        AotCache next = AotCache.of(build, JDK).orElseThrow();
        assertEquals(List.of("-XX:AOTCache=" + cache.file()), next.jvmFlags());
        assertFalse(next.records());
    }

    @Test
    void aCacheOlderThanTheBuildOrOfAnotherJdkIsMadeAgain() throws IOException {
        Path jar = Files.writeString(Files.createDirectories(build.resolve("lib/main")).resolve("app.jar"), "jar");
        AotCache cache = AotCache.of(build, JDK).orElseThrow();
        Files.writeString(cache.file(), "cache");
        Files.setLastModifiedTime(cache.file(), FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-01-02T00:00:00Z")));

        assertTrue(cache.records(), "a jar rebuilt after the cache makes it stale");
        assertTrue(cache.jvmFlags().get(0).startsWith("-XX:AOTCacheOutput="));
        assertFalse(Files.exists(cache.file()), "the stale cache is deleted");

        Files.writeString(cache.file(), "cache");
        AotCache otherJdk = AotCache.of(build, Runtime.Version.parse("26+1")).orElseThrow();
        assertTrue(otherJdk.records(), "a cache made by another JDK is not used");
    }
}
