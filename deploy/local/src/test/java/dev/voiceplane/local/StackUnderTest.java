package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * {@code java -jar target/local-stack.jar} as {@code deploy/local/up} starts it, on free ports with its own data
 * directory: for system tests, which talk to it through the gateway and, as the voice runtime would, to
 * call-service's internal routes.
 */
final class StackUnderTest {

    static final String READY = "voiceplane is ready on http://localhost:";
    static final String INTERNAL_TOKEN = "system-test-internal-token";
    private static final long START_TIMEOUT_SECONDS = 420;
    private static final long EXIT_TIMEOUT_SECONDS = 30;
    /** The gateway, the ordered services' ports after it, and those of the services after them (voice-runtime). */
    private static final int PORT_BLOCK = 1 + LocalService.PORT_ORDER.size() + 2;

    final int gatewayPort;
    private final int postgresPort;
    private final Path dataDirectory;
    private final Process process;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private final Map<Predicate<String>, CompletableFuture<String>> awaited = new ConcurrentHashMap<>();

    private StackUnderTest(int gatewayPort, int postgresPort, Path dataDirectory, Process process) {
        this.gatewayPort = gatewayPort;
        this.postgresPort = postgresPort;
        this.dataDirectory = dataDirectory;
        this.process = process;
    }

    /**
     * Starts the stack with {@code environment} (plus its ports, data directory and internal token) and returns once
     * it printed its ready line. {@code environment} is given a chance to use the gateway's port first.
     */
    static StackUnderTest start(Path dataDirectory, java.util.function.IntFunction<Map<String, String>> environment)
            throws Exception {
        return start(dataDirectory, List.of(), environment);
    }

    /** The same with command-line options ({@code --talk}, as {@code deploy/local/up --talk} passes it). */
    static StackUnderTest start(Path dataDirectory, List<String> options,
            java.util.function.IntFunction<Map<String, String>> environment) throws Exception {
        Path home = RepositoryFiles.home();
        for (String service : LocalService.PORT_ORDER) {
            Path jar = home.resolve(service).resolve("target/quarkus-app/quarkus-run.jar");
            if (!Files.isRegularFile(jar)) {
                fail("the system test needs every service built (" + jar + " is missing): run "
                        + "./mvnw -pl deploy/local -am verify from the repository root");
            }
        }
        int gatewayPort = freePortBlock(PORT_BLOCK);
        int postgresPort;
        do {
            postgresPort = freePortBlock(1);
        } while (postgresPort >= gatewayPort && postgresPort < gatewayPort + PORT_BLOCK);

        List<String> command = new ArrayList<>(List.of(javaCommand(), "-jar", System.getProperty("local-stack.jar")));
        command.addAll(options);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true);
        Map<String, String> variables = builder.environment();
        // VOICE_NATIVE=true runs the services' native executables (deploy/native/build): the system test against
        // a native stack (docs/native.md, "Tests"). Every other VOICE_ setting of this machine stays out.
        String nativeExecutables = variables.get("VOICE_NATIVE");
        variables.keySet().removeIf(name -> name.startsWith("VOICE_"));
        if (nativeExecutables != null) {
            variables.put("VOICE_NATIVE", nativeExecutables);
        }
        variables.put("VOICE_HOME", home.toString());
        variables.put("VOICE_DATA_DIR", dataDirectory.toString());
        variables.put("VOICE_HTTP_PORT", Integer.toString(gatewayPort));
        variables.put("VOICE_PG_PORT", Integer.toString(postgresPort));
        variables.put("VOICE_INTERNAL_TOKEN", INTERNAL_TOKEN);
        variables.putAll(environment.apply(gatewayPort));
        StackUnderTest stack = new StackUnderTest(gatewayPort, postgresPort, dataDirectory, builder.start());
        CompletableFuture<String> ready = stack.expect(line -> line.startsWith(READY + gatewayPort));
        Thread.ofPlatform().daemon().name("stack-output").start(stack::follow);
        stack.await(ready, START_TIMEOUT_SECONDS, "its ready line");
        return stack;
    }

    /** The embedded PostgreSQL's port (its superuser {@code postgres} needs no password on this machine). */
    int postgresPort() {
        return postgresPort;
    }

    /** Every line the stack (its services included) printed so far: the logs a test searches. */
    List<String> output() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    /** Port of a service on this machine: the runtime reaches call-service there, as inside a cluster. */
    int port(String service) {
        return gatewayPort + 1 + LocalService.PORT_ORDER.indexOf(service);
    }

    /** Port of the voice runtime, the first service after the ordered ones (LocalService.plan). */
    int runtimePort() {
        return gatewayPort + 1 + LocalService.PORT_ORDER.size();
    }

    /** Asks a service to stop as Kubernetes would (SIGTERM to its process only); returns its process. */
    ProcessHandle terminate(String service) {
        ProcessHandle child = processOf(service);
        assertTrue(child.destroy(), "SIGTERM could not be sent to " + service);
        return child;
    }

    /** A service's process: its jar ({@code <module>/target/quarkus-app/quarkus-run.jar}) or its native executable. */
    private ProcessHandle processOf(String service) {
        String jar = service + "/target/quarkus-app/quarkus-run.jar";
        String executable = service + "/target/" + service + "-";
        return process.descendants()
                .filter(handle -> {
                    String command = handle.info().commandLine().orElse("");
                    return command.contains(jar) || command.contains(executable) && command.contains("-runner");
                })
                .findFirst()
                .orElseThrow(() -> new AssertionError(service + " is not running"));
    }

    /** Completes with the first line of output, from now on, that matches. */
    CompletableFuture<String> expect(Predicate<String> line) {
        CompletableFuture<String> future = new CompletableFuture<>();
        awaited.put(line, future);
        return future;
    }

    String await(CompletableFuture<String> line, long seconds, String what) throws InterruptedException {
        try {
            return line.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException missing) {
            process.destroyForcibly();
            fail("the local stack did not print " + what + " within " + seconds + " s; its output:\n"
                    + String.join("\n", output), missing);
            return null;
        }
    }

    /** Kills a service as a crash would (SIGKILL), leaving the rest running. */
    void kill(String service) throws InterruptedException {
        ProcessHandle child = processOf(service);
        child.destroyForcibly();
        try {
            child.onExit().get(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError(service + " did not die", e);
        }
    }

    /**
     * Kills PostgreSQL as a crash (or the kernel's OOM killer) would: SIGKILL to the postmaster and every process it
     * started, so nothing is flushed or checkpointed on the way out. The postmaster is the process named in its data
     * directory's {@code postmaster.pid} (it is not the stack's child: {@code pg_ctl} detaches it).
     */
    void killPostgres() throws IOException, InterruptedException {
        Path pidFile = new DataDirectory(dataDirectory).postgresData().resolve("postmaster.pid");
        long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.UTF_8).getFirst().strip());
        ProcessHandle postmaster = ProcessHandle.of(pid)
                .orElseThrow(() -> new AssertionError("PostgreSQL (pid " + pid + ") is not running"));
        List<ProcessHandle> all = new ArrayList<>(postmaster.descendants().toList());
        all.addFirst(postmaster);
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("PostgreSQL process " + handle.pid() + " did not die", e);
            }
        }
    }

    /** Restarts a service through the stack's {@code restart} command; returns once it is ready again. */
    void restart(String service) throws InterruptedException {
        CompletableFuture<String> restarted = expect(line -> line.equals(service + " restarted"));
        try {
            OutputStream input = process.getOutputStream();
            input.write(("restart " + service + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        await(restarted, START_TIMEOUT_SECONDS, service + " restarted");
    }

    /** SIGTERM, then checks that nothing it started outlived it. */
    void stop() throws Exception {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            assertTrue(process.waitFor(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
                    "the local stack did not exit within " + EXIT_TIMEOUT_SECONDS + " s of SIGTERM");
            for (ProcessHandle child : children) {
                assertFalse(child.isAlive(), "process " + child.pid() + " " + child.info().command().orElse("")
                        + " outlived the stack");
            }
            assertRefusesConnections(port("credential-service"));
            assertRefusesConnections(postgresPort);
            assertRefusesConnections(gatewayPort);
        } finally {
            process.destroyForcibly();
        }
    }

    private static void assertRefusesConnections(int port) {
        assertThrows(ConnectException.class, () -> new Socket("localhost", port).close(),
                "port " + port + " still accepts connections");
    }

    private void follow() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                System.out.println("[stack] " + line);
                output.add(line);
                String current = line;
                awaited.forEach((matches, future) -> {
                    if (matches.test(current) && future.complete(current)) {
                        awaited.remove(matches);
                    }
                });
            }
        } catch (IOException e) {
            // the stack is gone; what waits for a line fails below
        }
        IllegalStateException exited = new IllegalStateException("the local stack exited");
        awaited.values().forEach(future -> future.completeExceptionally(exited));
    }

    /**
     * A free port whose next {@code size} - 1 ports are free too (the gateway's and the services'; PostgreSQL's, a
     * service's of its own), below the system's ephemeral range as the launcher chooses its own
     * ({@link LocalStack#freePortBlock}): a port inside that range can be taken by an outgoing connection (a service's
     * database pool) between this check and the bind, which made a stack fail to start ("Address already in use",
     * seen 2026-11-26 with six services starting at once).
     */
    static int freePortBlock(int size) {
        int port = LocalStack.freePortBlock(size);
        if (port == 0) {
            throw new IllegalStateException("no block of " + size + " free ports below the ephemeral range ("
                    + LocalStack.ephemeralPortsFrom() + ")");
        }
        return port;
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
