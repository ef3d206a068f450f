package dev.voiceplane.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import sun.misc.Signal;

/**
 * Runs voiceplane on one machine: the embedded PostgreSQL, every service that has been built, and the gateway in
 * front of them, routing as the Ingress does.
 */
public final class LocalStack {

    /** The voice runtime's service name (docs/voice-runtime.md). */
    static final String RUNTIME = "voice-runtime";

    /** The Ingress manifest, relative to the repository root: the one routing table of both worlds. */
    static final Path INGRESS = Path.of("deploy", "k8s", "base", "ingress.yaml");
    /** The web-call page, relative to the repository root, and where the gateway serves it (docs/web-calls.md). */
    static final Path WEB_CALL_PAGE = Path.of("docs", "examples", "web-call.html");
    static final String WEB_CALL_PATH = "/talk";
    /**
     * The console (docs/console.md): its module's name and path, which the Ingress routes to it. It comes after every
     * service, so theirs keep their ports.
     */
    static final String CONSOLE = "console";
    static final String CONSOLE_PATH = "/console";

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final int GATEWAY_PORT_ATTEMPTS = 20;
    /** Ports chosen for a stack on port 0 are at least this (above the well-known and most registered servers). */
    private static final int LOWEST_CHOSEN_PORT = 20000;
    private static final int MAX_PORT = 65535;
    private static final Set<String> DATABASE_NAMES = Set.of("postgres", "postgresql", "database");

    private final StackOptions options;
    private final StackSecrets secrets;
    private final DataDirectory data;
    private final List<LocalService> services;
    private final Gateway gateway;
    private final String java;
    private final List<ServiceProcess> processes = new CopyOnWriteArrayList<>();
    /** What each started service was started with, so that {@link #restart} starts it the same way. */
    private final Map<String, Launch> launches = new ConcurrentHashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile LocalDatabase database;
    private volatile int gatewayPort;
    private boolean stopping;

    LocalStack(StackOptions options, StackSecrets secrets, DataDirectory data, IngressRoutes routes, String java) {
        this.options = options;
        this.secrets = secrets;
        this.data = data;
        List<String> names = new ArrayList<>(routes.services());
        if (names.remove(CONSOLE)) {
            names.add(CONSOLE);
        }
        this.services = LocalService.plan(names, options.home());
        this.gateway = new Gateway(routes);
        this.java = java;
    }

    public static void main(String[] args) throws InterruptedException {
        // Netty (under the gateway) would use sun.misc.Unsafe, which newer JDKs warn about at every start.
        System.setProperty("io.netty.noUnsafe", "true");
        StackOptions options;
        try {
            options = StackOptions.parse(List.of(args), System.getenv());
        } catch (StackFailure failure) {
            System.err.println(failure.getMessage());
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(StackOptions.USAGE);
            return;
        }
        LocalStack stack;
        try {
            DataDirectory data = new DataDirectory(options.dataDirectory());
            if (options.fresh()) {
                data.wipe();
            }
            data.create();
            stack = new LocalStack(options, StackSecrets.resolve(System.getenv(), data), data,
                    routes(options.home()), javaCommand());
        } catch (StackFailure failure) {
            System.err.println("voiceplane did not start: " + failure.getMessage());
            System.exit(1);
            return;
        }
        stopOnTermination(stack);
        try {
            stack.start();
            if (options.talk()) {
                stack.talk(System.getenv(), TalkSetup.terminal());
            }
            Thread.ofPlatform().daemon().name("voiceplane-commands").start(() -> stack.readCommands(System.in));
        } catch (StackFailure failure) {
            System.err.println("voiceplane did not start: " + failure.getMessage());
            stack.stop();
            System.exit(1);
        } catch (RuntimeException | Error unexpected) {
            stack.stop();
            throw unexpected;
        }
        stack.stopped.await();
    }

    /** The Ingress manifest's routes, {@code /console} to the console among them. */
    static IngressRoutes routes(Path home) {
        return IngressRoutes.read(home.resolve(INGRESS));
    }

    /**
     * The voice runtime's settings for every service: the media token key (from the environment, else generated once
     * and kept), and, when the runtime is built, where carriers and web calls reach it through the gateway
     * (docs/voice-runtime.md), unless the environment says otherwise. {@code VOICE_PUBLIC_URL} (a tunnel) makes them
     * {@code wss://<tunnel>/media/...}.
     */
    private Map<String, String> runtimeSettings(List<LocalService> built, int gatewayPort) {
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, String> environment = System.getenv();
        settings.put("VOICE_MEDIA_TOKEN_KEY", StackOptions.value(environment, "VOICE_MEDIA_TOKEN_KEY")
                .orElseGet(() -> data.secret("media-token-key", StackSecrets::newToken)));
        if (built.stream().anyMatch(service -> service.name().equals(RUNTIME))) {
            String base = StackOptions.value(environment, "VOICE_PUBLIC_URL")
                    .map(url -> url.replaceFirst("^http", "ws").replaceAll("/+$", ""))
                    .orElse("ws://localhost:" + gatewayPort);
            settings.put("VOICE_RUNTIME_STREAM_URL", StackOptions.value(environment, "VOICE_RUNTIME_STREAM_URL")
                    .orElse(base + "/media/stream"));
            settings.put("VOICE_RUNTIME_WEB_CALL_URL", StackOptions.value(environment, "VOICE_RUNTIME_WEB_CALL_URL")
                    .orElse(base + "/media/web"));
            System.out.println("voice runtime: media streams at " + settings.get("VOICE_RUNTIME_STREAM_URL")
                    + ", web calls at " + settings.get("VOICE_RUNTIME_WEB_CALL_URL"));
        }
        return settings;
    }

    /** Starts everything and returns once every started service is ready. */
    void start() throws InterruptedException {
        long startedAt = System.nanoTime();
        List<LocalService> built = services.stream().filter(this::isRunnable).toList();
        int gatewayPort = listen(built);
        this.gatewayPort = gatewayPort;
        gateway.servePages(Map.of(WEB_CALL_PATH, options.home().resolve(WEB_CALL_PAGE)));
        attach(LocalDatabase.start(data.postgresData(), options.postgresPort(), data.postgresLog()));

        Map<String, String> shared = new LinkedHashMap<>();
        shared.put("VOICE_DB_URL", database.jdbcUrl());
        shared.put("VOICE_API_KEYS", secrets.apiKeys());
        shared.put("VOICE_INTERNAL_TOKEN", secrets.internalToken());
        shared.put("VOICE_ENCRYPTION_KEYSET", secrets.encryptionKeyset());
        // Server messages to a receiver on this machine (http://localhost:...) work out of the box (docs/webhooks.md).
        String allowPrivate = System.getenv().getOrDefault("VOICE_WEBHOOK_ALLOW_PRIVATE", "true");
        shared.put("VOICE_WEBHOOK_ALLOW_PRIVATE", allowPrivate);
        if (allowPrivate.equals("true")) {
            System.out.println("webhooks may go to private and loopback addresses (VOICE_WEBHOOK_ALLOW_PRIVATE=true,"
                    + " the local stack's default; set it to false to apply the SSRF rule)");
        }
        services.forEach(service -> shared.put(service.urlVariable(),
                "http://localhost:" + service.port(gatewayPort)));
        shared.putAll(runtimeSettings(built, gatewayPort));

        Map<LocalService, String> passwords = new LinkedHashMap<>();
        for (LocalService service : built) {
            passwords.put(service, data.secret("db-" + service.role(), StackSecrets::newToken));
        }
        database.provision(passwords);

        Map<String, Integer> running = new HashMap<>();
        for (LocalService service : services) {
            if (!isRunnable(service)) {
                System.out.println(service.name() + " is not built (no " + options.home().relativize(service.jar())
                        + "): its routes answer 503");
                continue;
            }
            String password = passwords.get(service);
            int port = service.port(gatewayPort);
            Map<String, String> environment = new HashMap<>(shared);
            environment.put("VOICE_HTTP_PORT", Integer.toString(port));
            // Like inside a cluster, only the gateway is the way in.
            environment.put("QUARKUS_HTTP_HOST", Gateway.HOST);
            environment.put("VOICE_DB_USER", service.role());
            environment.put("VOICE_DB_PASSWORD", password);
            // The container image's JVM flags and heap sizing, unless the caller's JDK_JAVA_OPTIONS sets its own.
            ImageJvm.of(options.home(), service)
                    .ifPresent(jvm -> environment.putAll(jvm.environmentOver(System.getenv())));
            Optional<Path> executable = nativeExecutable(service);
            System.out.println("starting " + service.name() + " on port " + port + executable
                    .map(file -> " (native: " + options.home().relativize(file) + ")")
                    .orElse(options.nativeExecutables() ? " (on the JVM: it has no native executable; deploy/native/build "
                            + service.name() + " makes it)" : ""));
            launch(service, port, environment, executable);
            running.put(service.name(), port);
        }
        gateway.forwardTo(running);
        System.out.println("gateway transport: " + gateway.transport());
        for (ServiceProcess process : processes) {
            process.awaitReady(START_TIMEOUT);
        }
        // From the first service's start to the last one's readiness (the database's start comes before it).
        System.out.printf(Locale.ROOT, "services ready %.2f s after their start%n",
                (System.nanoTime() - startedAt) / 1e9);

        System.out.println("voiceplane is ready on http://localhost:" + gatewayPort);
        secrets.developmentKey().ifPresent(key -> System.out.println("development API key (organisation "
                + StackSecrets.DEVELOPMENT_ORG + "): " + key + "   e.g. curl -H 'Authorization: Bearer " + key
                + "' http://localhost:" + gatewayPort + "/credential"));
        if (built.stream().anyMatch(service -> service.name().equals(CONSOLE))) {
            System.out.println("console: http://localhost:" + gatewayPort + CONSOLE_PATH + "/ (sign in with an API key;"
                    + " docs/console.md)");
        }
        if (built.stream().anyMatch(service -> service.name().equals(RUNTIME))) {
            System.out.println("web calls in the browser: http://localhost:" + gatewayPort + WEB_CALL_PATH
                    + " (" + WEB_CALL_PAGE + "; deploy/local/up --talk sets up an assistant for it)");
        }
    }

    /**
     * {@code --talk}: credentials from the provider keys and an assistant to talk to ({@link TalkSetup}), then the
     * page's address. What stops it is said; the stack runs on either way.
     */
    void talk(Map<String, String> environment, TalkSetup.Prompt prompt) throws InterruptedException {
        Optional<String> key = secrets.developmentKey().or(() -> TalkSetup.plainKey(secrets.apiKeys()));
        if (key.isEmpty()) {
            System.out.println("talk: VOICE_API_KEYS holds only hashed keys, so nothing can be set up here; create the"
                    + " credentials and the assistant through the API (README, Quick start)");
            return;
        }
        try {
            String page = new TalkSetup(URI.create("http://localhost:" + gatewayPort), key.get(), System.out)
                    .run(environment, prompt);
            System.out.println("talk to it: open " + page + " in a browser, give the page the API key"
                    + (secrets.developmentKey().isPresent() ? " printed above" : " of your organisation")
                    + " and press Call");
        } catch (TalkSetup.Stopped stopped) {
            System.out.println("talk: nothing more was set up: " + stopped.getMessage());
        }
    }

    /**
     * Stops the services, then the gateway, then PostgreSQL. Safe to call more than once, from any thread: a second
     * call returns once the first has finished.
     */
    synchronized void stop() {
        if (stopping) {
            return;
        }
        stopping = true;
        System.out.println("voiceplane is stopping");
        processes.forEach(ServiceProcess::requestStop);
        Instant deadline = Instant.now().plus(STOP_GRACE);
        processes.forEach(process -> process.awaitExit(deadline));
        gateway.close();
        if (database != null) {
            database.close();
        }
        System.out.println("voiceplane stopped");
        stopped.countDown();
    }

    // Starting and stopping exclude each other, so nothing started during a stop is left behind.

    private synchronized void attach(LocalDatabase started) {
        if (stopping) {
            started.close();
            throw new StackFailure("stopped while starting");
        }
        database = started;
    }

    private synchronized ServiceProcess launch(LocalService service, int port, Map<String, String> environment,
            Optional<Path> executable) {
        if (stopping) {
            throw new StackFailure("stopped while starting");
        }
        ServiceProcess process = executable
                .map(file -> ServiceProcess.startNative(service, port, file, environment))
                .orElseGet(() -> ServiceProcess.start(service, port, java, environment));
        processes.add(process);
        launches.put(service.shortName(), new Launch(service, port, environment, executable, process));
        return process;
    }

    /** With {@code --native}, the service's native executable, when it has one. */
    private Optional<Path> nativeExecutable(LocalService service) {
        return options.nativeExecutables() ? ServiceProcess.nativeExecutable(service) : Optional.empty();
    }

    /** Built as a jar, or, with {@code --native}, as a native executable. */
    private boolean isRunnable(LocalService service) {
        return service.isBuilt() || nativeExecutable(service).isPresent();
    }

    private record Launch(LocalService service, int port, Map<String, String> environment,
            Optional<Path> executable, ServiceProcess process) {
    }

    /**
     * Lines on standard input, for tests and for trying failures by hand: {@code restart <service>} stops the
     * service if it still runs (SIGTERM) and starts it again as before; {@code <service>} is its short name
     * ({@code call}) or full name. Prints {@code <service> restarted} once it is ready again. {@code restart postgres}
     * does the same to the database, on its data directory and port (the services stay up and reconnect), and prints
     * {@code postgres restarted}. The input ending (as under {@code up} without a terminal) only ends the reading.
     */
    void readCommands(java.io.InputStream input) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                String[] words = line.strip().split("\\s+");
                if (words.length == 2 && words[0].equals("restart") && DATABASE_NAMES.contains(words[1])) {
                    restartDatabase();
                } else if (words.length == 2 && words[0].equals("restart")) {
                    restart(words[1].replaceFirst("-service$", ""));
                } else if (!line.isBlank()) {
                    System.out.println("unknown command '" + line.strip()
                            + "'; known: restart <service>, restart postgres");
                }
            }
        } catch (IOException closed) {
            // nothing more to read
        }
    }

    /**
     * Stops PostgreSQL (a fast stop; when it is gone already, as after a crash, only its lock is released) and starts
     * it again on the same data directory and port: what a crash followed by {@code up} does, without restarting the
     * services. PostgreSQL replays its write-ahead log on start, so every acknowledged write is there again.
     */
    private void restartDatabase() {
        LocalDatabase stopped = database;
        if (stopped == null) {
            System.out.println("postgres is not started");
            return;
        }
        System.out.println("restarting postgres on port " + stopped.port());
        stopped.close();
        try {
            attach(LocalDatabase.start(data.postgresData(), stopped.port(), data.postgresLog()));
            System.out.println("postgres restarted");
        } catch (StackFailure failure) {
            System.out.println("postgres did not restart: " + failure.getMessage());
        }
    }

    private void restart(String shortName) {
        Launch launch = launches.get(shortName);
        if (launch == null) {
            System.out.println("no started service named " + shortName + "; started: " + launches.keySet());
            return;
        }
        launch.process().requestStop();
        launch.process().awaitExit(Instant.now().plus(STOP_GRACE));
        processes.remove(launch.process());
        try {
            System.out.println("restarting " + launch.service().name() + " on port " + launch.port());
            launch(launch.service(), launch.port(), launch.environment(), launch.executable())
                    .awaitReady(START_TIMEOUT);
            System.out.println(launch.service().name() + " restarted");
        } catch (StackFailure failure) {
            System.out.println(launch.service().name() + " did not restart: " + failure.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Opens the gateway where the ports after it, which the built services take, are free too. A configured port is
     * used as is; with port 0 a free block is searched for below the kernel's ephemeral range. A block inside that
     * range (what listening on port 0 gives) can be free when checked and taken a moment later as the local port of
     * an outgoing connection (a service's connection to PostgreSQL, while the JVM services start for seconds), and
     * the service whose port it was then cannot start (2026-11-26, 46f5720: "Address already in use" in SystemIT, whose
     * own choice of a block below that range had read the range wrong).
     */
    private int listen(List<LocalService> built) {
        if (options.gatewayPort() != 0) {
            built.forEach(service -> requireFree(service, options.gatewayPort()));
            return gateway.listen(options.gatewayPort());
        }
        int span = built.stream().mapToInt(LocalService::portOffset).max().orElse(0) + 1;
        for (int attempt = 0; attempt < GATEWAY_PORT_ATTEMPTS; attempt++) {
            int candidate = freePortBlock(span);
            int port;
            try {
                port = gateway.listen(candidate);
            } catch (StackFailure taken) {
                continue;
            }
            if (built.stream().allMatch(service -> isFree(service.port(port)))) {
                return port;
            }
            gateway.unlisten();
        }
        throw new StackFailure("found no free port for the gateway with the " + built.size()
                + " ports after it free for the services; set VOICE_HTTP_PORT");
    }

    private static void requireFree(LocalService service, int gatewayPort) {
        if (!isFree(service.port(gatewayPort))) {
            throw new StackFailure("port " + service.port(gatewayPort) + " (VOICE_HTTP_PORT + " + service.portOffset()
                    + ", for " + service.name() + ") is not free; choose another VOICE_HTTP_PORT");
        }
    }

    /**
     * A free port whose next {@code size} - 1 ports are free too, chosen at random below the kernel's ephemeral range
     * (and from {@value #LOWEST_CHOSEN_PORT}); 0 when none was found or that range leaves no room (listening on 0 then
     * takes any port). The system tests choose their stack's ports with it too.
     */
    static int freePortBlock(int size) {
        int highest = ephemeralPortsFrom() - size;
        for (int attempt = 0; attempt < GATEWAY_PORT_ATTEMPTS && highest > LOWEST_CHOSEN_PORT; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(LOWEST_CHOSEN_PORT, highest);
            boolean free = true;
            for (int port = candidate; free && port < candidate + size; port++) {
                free = isFree(port);
            }
            if (free) {
                return candidate;
            }
        }
        return 0;
    }

    /** The first port the kernel hands out for outgoing connections (Linux: ip_local_port_range; else IANA's 49152). */
    static int ephemeralPortsFrom() {
        try {
            // As lines: Files.readString gives "3" for this sysctl file (JDK 25).
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException unknown) {
            return 49152;
        }
    }

    private static boolean isFree(int port) {
        if (port > MAX_PORT) {
            return false;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    /**
     * PostgreSQL's library stops the database from its own shutdown hook, and hooks run all at once; handling TERM and
     * INT here stops the services before the database they are still connected to.
     */
    private static void stopOnTermination(LocalStack stack) {
        for (String name : List.of("TERM", "INT")) {
            Signal.handle(new Signal(name), signal -> {
                stack.stop();
                System.exit(128 + signal.getNumber());
            });
        }
        Runtime.getRuntime().addShutdownHook(new Thread(stack::stop, "voiceplane-stop"));
    }

    /** The services run on the same Java as the launcher, which the up script has checked. */
    private static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}
