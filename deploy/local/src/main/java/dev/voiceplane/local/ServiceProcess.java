package dev.voiceplane.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A service running as a child process, a JVM or its native executable: its output echoed line by line under its
 * name, its readiness probed over HTTP.
 */
final class ServiceProcess {

    private static final Duration PROBE_INTERVAL = Duration.ofMillis(250);
    /** How much longer a stop may take when the JVM writes its AOT cache on the way out. */
    private static final Duration CACHE_WRITING = Duration.ofSeconds(90);
    private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final LocalService service;
    private final Process process;
    private final URI readiness;
    private final Thread echo;
    /** The AOT cache this start records, written when it stops; empty when it uses one (or none). */
    private final Optional<AotCache> recording;
    private volatile boolean stopping;

    private ServiceProcess(LocalService service, Process process, int port, Optional<AotCache> recording) {
        this.service = service;
        this.process = process;
        this.recording = recording;
        this.readiness = URI.create("http://localhost:" + port + "/q/health/ready");
        this.echo = Thread.ofPlatform().daemon().name(service.shortName() + "-output").unstarted(this::echoOutput);
    }

    /**
     * Starts {@code java -jar <jar>} in the service's module directory, with {@code environment} added to ours and,
     * with {@code VOICE_AOT_CACHE=true} on JDK 25 or newer, the service's AOT cache ({@link AotCache}). Off by
     * default: the start that records the cache runs slower and its stop takes seconds longer (the cache is written
     * then), which the benchmarks and the tests, starting from a fresh build each time, would pay for nothing.
     */
    static ServiceProcess start(LocalService service, int port, String java, Map<String, String> environment) {
        return start(service, port, new ArrayList<>(List.of(java)), environment);
    }

    /**
     * Starts the service's native executable ({@link #nativeExecutable}) in its module directory, with
     * {@code environment} added to ours; it reads the same environment as the JVM service.
     */
    static ServiceProcess startNative(LocalService service, int port, Path executable, Map<String, String> environment) {
        return launch(service, port, List.of(executable.toString()), environment, Optional.empty());
    }

    /**
     * The newest {@code <module>/target/<service>-<version>-runner}, what a native build makes
     * ({@code deploy/native/build}); empty when the service has none.
     */
    static Optional<Path> nativeExecutable(LocalService service) {
        Path target = service.module().resolve("target");
        if (!Files.isDirectory(target)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().startsWith(service.name() + "-")
                            && file.getFileName().toString().endsWith("-runner"))
                    .filter(file -> Files.isRegularFile(file) && Files.isExecutable(file))
                    .max(Comparator.comparing(ServiceProcess::modified));
        } catch (IOException e) {
            throw new StackFailure("cannot list " + target + ": " + e.getMessage(), e);
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static ServiceProcess start(LocalService service, int port, List<String> command,
            Map<String, String> environment) {
        Optional<AotCache> cache = StackOptions.value(System.getenv(), "VOICE_AOT_CACHE").orElse("false").equals("true")
                ? AotCache.of(service.jar().getParent(), Runtime.version())
                : Optional.empty();
        cache.ifPresent(aot -> command.addAll(aot.jvmFlags()));
        Optional<AotCache> recording = cache.filter(AotCache::records);
        recording.ifPresent(aot -> System.out.println("[" + service.shortName() + "] records its AOT cache for the next"
                + " starts (written when it stops: " + aot.file().getFileName() + ")"));
        command.addAll(List.of("-jar", service.jar().toString()));
        return launch(service, port, command, environment, recording);
    }

    private static ServiceProcess launch(LocalService service, int port, List<String> command,
            Map<String, String> environment, Optional<AotCache> recording) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(service.module().toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new StackFailure("cannot start " + service.name() + ": " + e.getMessage(), e);
        }
        ServiceProcess started = new ServiceProcess(service, process, port, recording);
        started.echo.start();
        process.onExit().thenRun(started::reportUnexpectedExit);
        return started;
    }

    /** Waits until {@code /q/health/ready} answers 200; fails as soon as the process dies or the time is up. */
    void awaitReady(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        HttpRequest probe = HttpRequest.newBuilder(readiness).timeout(Duration.ofSeconds(2)).GET().build();
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new StackFailure(service.name() + " exited with code " + process.exitValue()
                        + " before it was ready (its output is above, prefixed [" + service.shortName() + "])");
            }
            try {
                if (PROBE.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // expected until the service has opened its port
            }
            Thread.sleep(PROBE_INTERVAL);
        }
        throw new StackFailure(service.name() + " was not ready within " + timeout.toSeconds() + " s (" + readiness
                + ")");
    }

    /**
     * Asks the service to shut down (SIGTERM); {@link #awaitExit} then waits for it. Signalled through its handle:
     * {@link Process#destroy()} would also close the pipe and lose what the service logs while it stops.
     */
    void requestStop() {
        stopping = true;
        process.toHandle().destroy();
    }

    /**
     * Waits for the exit, and the last of its output, until {@code deadline} (later when it writes its AOT cache);
     * then kills the process.
     */
    void awaitExit(Instant deadline) {
        Instant until = recording.isPresent() ? deadline.plus(CACHE_WRITING) : deadline;
        try {
            if (process.waitFor(millisUntil(until), TimeUnit.MILLISECONDS)) {
                recording.ifPresent(AotCache::keepRecording);
            } else {
                System.out.println("[" + service.shortName() + "] did not stop in time: killing it");
                process.destroyForcibly().waitFor();
            }
            echo.join(Math.max(1, millisUntil(until)));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static long millisUntil(Instant deadline) {
        return Math.max(0, Duration.between(Instant.now(), deadline).toMillis());
    }

    private void echoOutput() {
        String prefix = "[" + service.shortName() + "] ";
        try (BufferedReader output = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            output.lines().forEach(line -> System.out.println(prefix + line));
        } catch (IOException | UncheckedIOException e) {
            System.out.println(prefix + "(output lost: " + e.getMessage() + ")");
        }
    }

    private void reportUnexpectedExit() {
        if (!stopping) {
            System.out.println("[" + service.shortName() + "] exited with code " + process.exitValue());
        }
    }
}
