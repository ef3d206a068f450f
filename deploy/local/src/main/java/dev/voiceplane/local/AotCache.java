package dev.voiceplane.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A service's JDK AOT cache (JEP 483/514/515, JDK 25+): the classes it loads, linked, and the JIT's profiles, kept
 * in {@code target/quarkus-app/} next to the jars they were made from, so that later starts skip most class loading
 * and warm up sooner (BENCHMARKS.md, "Each service alone: start-up and memory").
 *
 * <p>Made by the service's own first start: it runs with {@code -XX:AOTCacheOutput} and the JVM writes the cache
 * when the service stops. Written under a temporary name and renamed only after a clean exit, so a start killed
 * half-way leaves no half cache. A cache older than any file of the build, or made by another JDK (the JDK's version
 * is in its name), is not used and is made again. The JVM checks the cache too and starts without it when it does
 * not match, so a cache can make a start slower but never break it.
 */
final class AotCache {

    /** The first JDK whose {@code -XX:AOTCacheOutput} records and writes the cache in one run (JEP 514). */
    static final int FIRST_JDK = 25;
    private static final String SUFFIX = ".aot";
    private static final String RECORDING = ".recording";

    private final Path directory;
    private final Path cache;
    private final Path recording;

    private AotCache(Path directory, Runtime.Version jdk) {
        this.directory = directory;
        this.cache = directory.resolve("voiceplane-jdk-" + jdk + SUFFIX);
        // Its own name per start: two stacks run from one checkout (tests) never write the same file.
        this.recording = directory.resolve(cache.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + System.nanoTime() + RECORDING);
    }

    /** The cache of the service whose build is {@code quarkusApp}, for the JDK {@code jdk}; none before JDK 25. */
    static Optional<AotCache> of(Path quarkusApp, Runtime.Version jdk) {
        return jdk.feature() >= FIRST_JDK
                ? Optional.of(new AotCache(quarkusApp, jdk))
                : Optional.empty();
    }

    /**
     * The JVM flags of the next start: use the cache when it is newer than every file of the build, otherwise
     * record a new one (and delete the old ones).
     */
    List<String> jvmFlags() {
        if (isFresh()) {
            return List.of("-XX:AOTCache=" + cache);
        }
        deleteCaches();
        // Its warnings list the classes the cache cannot hold (proxies, JFR events): expected, and not news.
        return List.of("-XX:AOTCacheOutput=" + recording, "-Xlog:aot=error");
    }

    /** Whether the next start records (and its stop then writes) the cache. */
    boolean records() {
        return !isFresh();
    }

    /** After a clean exit of a recording start: puts the cache in place. */
    void keepRecording() {
        if (Files.isRegularFile(recording)) {
            try {
                Files.move(recording, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                System.out.println("could not keep the AOT cache " + cache + ": " + e.getMessage());
            }
        }
    }

    Path file() {
        return cache;
    }

    private boolean isFresh() {
        if (!Files.isRegularFile(cache)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            FileTime made = Files.getLastModifiedTime(cache);
            return files.filter(Files::isRegularFile)
                    .filter(file -> !file.getFileName().toString().contains(SUFFIX))
                    .noneMatch(file -> modified(file).compareTo(made) > 0);
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    private void deleteCaches() {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(file -> file.getFileName().toString().contains(SUFFIX)).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            System.out.println("could not delete the old AOT caches in " + directory + ": " + e.getMessage());
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
