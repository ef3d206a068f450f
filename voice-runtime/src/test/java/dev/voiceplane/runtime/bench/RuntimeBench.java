package dev.voiceplane.runtime.bench;

import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The client side of {@code deploy/bench/runtime}: N fake Twilio callers at once against a running voice runtime
 * (its own process), whose providers and control plane are {@link BenchFakes} (another process).
 *
 * <p>Each call: the greeting is heard and waited out; three questions, each answered (voice-to-voice: end of the
 * caller's speech → first non-silent assistant audio, as the caller receives it; and "heard": the caller's last voiced
 * frame sent → the first voiced frame of the answer played, Twilio's playout emulated, {@link FakeCaller.Utterance#heardMs}); a second into the long third
 * answer, the caller speaks over it (barge-in: start of that speech → {@code clear} received), and that question's
 * answer is heard too (a fourth voice-to-voice); then (unless BENCH_TOOL_TURN=0) a fifth question whose answer needs
 * one round trip of a function tool (the model calls it, the runtime asks call-service's stand-in, which answers at
 * once, the model is asked again with the result): its voice-to-voice is reported next to the plain turns', with the
 * difference of the medians (the tool round trip's added latency); then the caller hangs up ({@code stop}). Between
 * turns the caller waits until the reply has played out and 400 ms of quiet, as a person would.
 *
 * <p>Per run (a scenario of delays × a number of concurrent calls): percentiles of the client-side figures, the
 * runtime's own per-stage histograms ({@code voice_runtime_stage_seconds} at {@code /q/metrics}, the difference
 * before/after the run), underruns heard by the callers, CPU of the runtime, the fakes and this client
 * ({@code /proc/<pid>/stat}), the runtime's peak RSS ({@code /proc/<pid>/status}, sampled each second). Prints
 * Markdown tables.
 *
 * <p>Engines ({@code BENCH_ENGINES}, default {@code cascade}): {@code cascade} is the transcriber, model and voice;
 * {@code realtime} the same calls on a speech-to-speech model ({@link BenchFakes#REALTIME_MODEL}) on OpenAI Realtime's
 * zero-delay fake, whose server VAD ends the caller's turn {@value #REALTIME_SILENCE_MS} ms (the runtime's
 * {@code silence_duration_ms}) after the last voiced window; it runs the {@code zero} scenario only. Its own share,
 * client side, is voice-to-voice less that wait.
 *
 * <p>Routes ({@code BENCH_ROUTES}, default {@code direct}): {@code direct} connects the callers to the runtime's port;
 * {@code gateway} through the local gateway of deploy/local (BENCH_GATEWAY_PORT, started by the script), as carriers
 * reach the runtime through the Ingress.
 *
 * <p>Settings (environment): BENCH_RUNTIME_PORT, BENCH_CONTROL_PORT, BENCH_RUNTIME_PID, BENCH_FAKES_PID,
 * VOICE_MEDIA_TOKEN_KEY (required); BENCH_CALLS (default {@code 1,100,500}); BENCH_SCENARIOS (default
 * {@code zero,realistic}; also {@code defaults}: zero-delay fakes with the assistant's default response delays);
 * BENCH_SERIAL_CALLS (calls one after the other for the 1-call run, default 5); BENCH_RAMP_MS_PER_CALL (stagger of
 * the starts, default 20 ms); BENCH_VAD_STOP_MILLIS (the runtime's VOICE_VAD_STOP_MILLIS, default 200);
 * BENCH_TOOL_TURN (0: no tool turn); BENCH_DEBUG (set: one line per failed call, with what its caller had heard).
 */
public final class RuntimeBench {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final long TICKS_PER_SECOND = 100;
    /** The server VAD's {@code silence_duration_ms} the runtime asks OpenAI Realtime for: the realtime turn's wait. */
    static final long REALTIME_SILENCE_MS = 500;

    record Scenario(String name, String label, long sttMs, long llmMs, long ttsMs, double responseDelay,
            double llmRequestDelay) {
    }

    static final Map<String, Scenario> SCENARIOS = Map.of(
            "zero", new Scenario("zero", "zero-delay fakes", 0, 0, 0, 0, 0),
            "realistic", new Scenario("realistic", "realistic fakes (STT 100, LLM 350, TTS 150 ms)", 100, 350, 150, 0, 0),
            "defaults", new Scenario("defaults", "zero-delay fakes, assistant delays 0.4/0.1 s", 0, 0, 0, 0.4, 0.1));

    private final int runtimePort = Integer.parseInt(env("BENCH_RUNTIME_PORT", null));
    private final int controlPort = Integer.parseInt(env("BENCH_CONTROL_PORT", null));
    private final long runtimePid = Long.parseLong(env("BENCH_RUNTIME_PID", null));
    private final long fakesPid = Long.parseLong(env("BENCH_FAKES_PID", null));
    private final MediaTokens tokens = new MediaTokens(env("VOICE_MEDIA_TOKEN_KEY", null));
    private final int serialCalls = Integer.parseInt(env("BENCH_SERIAL_CALLS", "5"));
    private final long rampMsPerCall = Long.parseLong(env("BENCH_RAMP_MS_PER_CALL", "20"));
    /** The runtime's VOICE_VAD_STOP_MILLIS: the silence it waits out before it ends the caller's turn. */
    private final long vadStopMillis = Long.parseLong(env("BENCH_VAD_STOP_MILLIS", "200"));
    /** Per provider: {@code stage:provider} entries, each run with the others at Deepgram, OpenAI and ElevenLabs. */
    private final String providers = System.getenv("BENCH_PROVIDERS");
    /** The tool turn needs OpenAI's fake (the one scripted to call the tool): off by default in a per-provider run. */
    private final boolean toolTurn = !"0".equals(env("BENCH_TOOL_TURN",
            providers == null || providers.isBlank() ? "1" : "0"));
    private final List<String> engines = List.of(env("BENCH_ENGINES", "cascade").split(","));
    private final List<String> routes = List.of(env("BENCH_ROUTES", "direct").split(","));
    private final String gatewayPort = blankAsNull(System.getenv("BENCH_GATEWAY_PORT"));
    /** The gateway's process, when it runs: its CPU is noted per run. */
    private final long gatewayPid = Long.parseLong(env("BENCH_GATEWAY_PID", "0"));
    /** The engine and the route of the calls made now. */
    private String engine = "cascade";
    private String route = "direct";
    private final HttpClient http = HttpClient.newHttpClient();
    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2)
            .setBlockedThreadCheckInterval(10_000));
    private final byte[][] speech = new byte[BenchFakes.QUESTIONS.length][];
    private final List<String> rows = new ArrayList<>();
    private final List<String> stageRows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            if (fallback == null) {
                throw new IllegalArgumentException(name + " is required");
            }
            return fallback;
        }
        return value;
    }

    private static String blankAsNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    public static void main(String[] args) throws Exception {
        RuntimeBench bench = new RuntimeBench();
        try {
            bench.run();
        } finally {
            bench.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        System.exit(0);
    }

    private void run() throws Exception {
        for (int i = 0; i < speech.length; i++) {
            speech[i] = SpeechFixtures.mulaw8k(BenchFakes.QUESTIONS[i]);
        }
        List<Integer> counts = new ArrayList<>();
        for (String n : env("BENCH_CALLS", "1,100,500").split(",")) {
            counts.add(Integer.parseInt(n.trim()));
        }
        // Warm-up: a few calls, not measured (the JIT compiles the hot paths; the first TTS requests are slower).
        configure(SCENARIOS.get("zero"));
        System.err.println("warm-up: 10 calls");
        measure(SCENARIOS.get("zero"), 10, false);
        String soakMinutes = System.getenv("BENCH_SOAK_MINUTES");
        if (soakMinutes != null && !soakMinutes.isBlank()) {
            soak(Double.parseDouble(soakMinutes), Integer.parseInt(env("BENCH_SOAK_CALLS", "100")));
            return;
        }
        if (providers != null && !providers.isBlank()) {
            perProvider(counts);
        } else {
            for (String name : engines) {
                engine(name.trim());
                for (String scenarioName : env("BENCH_SCENARIOS", "zero,realistic").split(",")) {
                    Scenario scenario = SCENARIOS.get(scenarioName.trim());
                    if (scenario == null) {
                        throw new IllegalArgumentException("unknown scenario " + scenarioName
                                + " (zero, realistic, defaults)");
                    }
                    if (realtime() && !scenario.name().equals("zero")) {
                        continue; // the realtime fake has one delay, its model's: run with zero only
                    }
                    configure(scenario);
                    for (String way : routes) {
                        route(way.trim());
                        for (int n : counts) {
                            System.err.println("run: " + label(scenario) + ", " + n + " concurrent calls");
                            measure(scenario, n, true);
                        }
                    }
                }
            }
        }
        System.out.println();
        System.out.println("| Fakes | Calls (peak live) | Completed | Voice-to-voice p50 / p95 / p99 (ms) | Heard"
                + " p50 / p95 / p99 (ms) | Tool turn voice-to-voice p50 / p95 / p99 (ms), added p50 | Barge-in p50 /"
                + " p95 / p99 (ms) | Own share p50 / p95 / p99 (ms) | Runtime `own` histogram p50 / p95 / p99 (ms) |"
                + " Underruns (max gap) | Runtime CPU per call-second |"
                + " CPU: runtime / fakes / callers (cores) | Runtime RSS peak |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        System.out.println();
        System.out.println("Stages as the runtime measures them (`voice_runtime_stage_seconds`, p50 / p95 ms, from its"
                + " histogram buckets, interpolated):");
        System.out.println();
        System.out.println("| Fakes | Calls | end_of_turn | llm_first_token | tts_first_audio | own | voice_to_voice |"
                + " barge_in | own − end_of_turn (mean) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        stageRows.forEach(System.out::println);
        if (!notes.isEmpty()) {
            System.out.println();
            notes.forEach(note -> System.out.println("- " + note));
        }
    }

    /**
     * The soak: {@code concurrent} callers, each holding one call after another (the whole conversation of
     * {@link #call}: greeting, three answers, a barge-in, the hang-up), for {@code minutes}; the runtime's threads, open
     * file descriptors, RSS and live calls sampled every 30 s; then, with no calls, the same once the runtime has
     * settled (live calls 0, at most 120 s). A leak shows as a column that grows with the calls made, not with the
     * calls live.
     */
    private void soak(double minutes, int concurrent) throws Exception {
        configure(SCENARIOS.get("zero"));
        Run run = new Run();
        long started = System.nanoTime();
        long end = started + (long) (minutes * 60e9);
        long cpuBefore = cpuTicks(runtimePid);
        System.out.println();
        System.out.printf(Locale.ROOT, "Soak: %d concurrent callers for %.0f min (zero-delay fakes)%n%n", concurrent, minutes);
        System.out.println("| Minute | Calls completed | Failed | Live calls | Threads | Open fds | RSS (MiB) | Load average |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        soakSample(0, run);
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < concurrent; i++) {
                long delay = i * rampMsPerCall;
                executor.submit(() -> {
                    Thread.sleep(delay);
                    while (System.nanoTime() < end) {
                        call(run);
                    }
                    return null;
                });
            }
            long next = started + 30_000_000_000L;
            while (System.nanoTime() < end) {
                Thread.sleep(Math.max(1, Math.min(end, next) - System.nanoTime()) / 1_000_000 + 1);
                if (System.nanoTime() >= next) {
                    soakSample((System.nanoTime() - started) / 60e9, run);
                    next += 30_000_000_000L;
                }
            }
        }
        long settleBy = System.nanoTime() + 120_000_000_000L;
        while (liveCalls() > 0 && System.nanoTime() < settleBy) {
            Thread.sleep(500);
        }
        soakSample((System.nanoTime() - started) / 60e9, run);
        double cpu = (cpuTicks(runtimePid) - cpuBefore) / (double) TICKS_PER_SECOND;
        System.out.println();
        System.out.printf(Locale.ROOT, "- %d calls completed, %d failed%s; runtime CPU %.0f s over %.0f call-seconds"
                        + " (%.1f ms per call-second); the last row is after the calls, once the runtime had settled%n",
                run.completed.get(), run.failures.values().stream().mapToInt(AtomicInteger::get).sum(),
                run.failures.isEmpty() ? "" : " " + new TreeMap<>(run.failures), cpu, run.callSeconds.sum(),
                cpu * 1000 / Math.max(1, run.callSeconds.sum()));
    }

    private void soakSample(double minute, Run run) throws Exception {
        int failed = run.failures.values().stream().mapToInt(AtomicInteger::get).sum();
        System.out.printf(Locale.ROOT, "| %.1f | %d | %d | %d | %d | %d | %d | %s |%n", minute, run.completed.get(),
                failed, liveCalls(), procStatus(runtimePid, "Threads:"), openFds(runtimePid), rssKb(runtimePid) / 1024,
                loadAverage());
    }

    /** The runtime's own gauge of live calls. */
    private int liveCalls() throws Exception {
        String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + runtimePort + "/q/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("voice_runtime_live_calls")) {
                return (int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }

    private static long procStatus(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            // The process is gone: reported as 0.
        }
        return 0;
    }

    private static long openFds(long pid) {
        try (var open = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return open.count();
        } catch (Exception e) {
            return -1;
        }
    }

    /**
     * The same calls with zero-delay fakes once per provider of {@code BENCH_PROVIDERS} ({@code all}, or entries such
     * as {@code voice:cartesia,model:anthropic}): one stage changed at a time from Deepgram, OpenAI and ElevenLabs, so
     * that each row's runtime share (the {@code own} histogram) is that provider's path through the runtime.
     */
    private void perProvider(List<Integer> counts) throws Exception {
        List<String[]> entries = new ArrayList<>();
        if ("all".equals(providers.trim())) {
            for (String stage : List.of("transcriber", "model", "voice")) {
                new TreeMap<>(BenchFakes.PROVIDERS.get(stage)).keySet().forEach(p -> entries.add(new String[] {stage, p}));
            }
        } else {
            for (String entry : providers.split(",")) {
                String[] parts = entry.trim().split(":", 2);
                if (parts.length != 2 || !BenchFakes.PROVIDERS.containsKey(parts[0])) {
                    throw new IllegalArgumentException("BENCH_PROVIDERS takes stage:provider entries (or all), not "
                            + entry);
                }
                entries.add(parts);
            }
        }
        Scenario zero = SCENARIOS.get("zero");
        configure(zero);
        for (String[] entry : entries) {
            Map<String, String> chosen = new java.util.LinkedHashMap<>(Map.of("transcriber", "deepgram", "model", "openai",
                    "voice", "11labs"));
            chosen.put(entry[0], entry[1]);
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controlPort
                    + "/bench/providers?transcriber=" + chosen.get("transcriber") + "&model=" + chosen.get("model")
                    + "&voice=" + chosen.get("voice"))).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("the fakes refused the providers: " + response.body());
            }
            Scenario scenario = new Scenario(zero.name(), "zero-delay, " + entry[0] + " " + entry[1], 0, 0, 0, 0, 0);
            // A few calls first, not measured: the provider's path is compiled, its connections are opened.
            measure(scenario, 3, false);
            for (int n : counts) {
                System.err.println("run: " + scenario.label() + ", " + n + " concurrent calls");
                measure(scenario, n, true);
            }
        }
    }

    /** The calls that attach from now run on {@code name}'s engine; a few first, not measured, on a new one. */
    private void engine(String name) throws Exception {
        if (!name.equals("cascade") && !name.equals("realtime")) {
            throw new IllegalArgumentException("unknown engine " + name + " (cascade, realtime)");
        }
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controlPort
                + "/bench/providers?engine=" + name)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the fakes refused the engine: " + response.body());
        }
        boolean changed = !name.equals(engine);
        engine = name;
        if (changed) {
            configure(SCENARIOS.get("zero"));
            System.err.println("warm-up: 10 calls on the " + name + " engine");
            measure(SCENARIOS.get("zero"), 10, false);
        }
    }

    private boolean realtime() {
        return engine.equals("realtime");
    }

    private void route(String name) {
        if (name.equals("gateway") && gatewayPort == null) {
            throw new IllegalArgumentException("BENCH_ROUTES=gateway needs BENCH_GATEWAY_PORT (BENCH_VIA_GATEWAY of"
                    + " deploy/bench/runtime)");
        }
        if (!name.equals("direct") && !name.equals("gateway")) {
            throw new IllegalArgumentException("unknown route " + name + " (direct, gateway)");
        }
        route = name;
    }

    /** The media WebSocket the callers connect to: the runtime's, or the gateway's in front of it. */
    private String mediaUrl() {
        return route.equals("gateway") ? "ws://localhost:" + gatewayPort + "/media/stream"
                : "ws://127.0.0.1:" + runtimePort + "/media/stream";
    }

    /** The row's label: the engine, the scenario, the route. */
    private String label(Scenario scenario) {
        String label = realtime() ? "realtime " + BenchFakes.REALTIME_MODEL + ", zero-delay fake" : scenario.label();
        return label + (route.equals("gateway") ? ", via the gateway" : "");
    }

    private void configure(Scenario s) throws Exception {
        String query = String.format(Locale.ROOT, "sttMs=%d&llmMs=%d&ttsMs=%d&responseDelay=%s&llmRequestDelay=%s",
                s.sttMs(), s.llmMs(), s.ttsMs(), s.responseDelay(), s.llmRequestDelay());
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + controlPort + "/bench/config?" + query))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the fakes refused the configuration: " + response.body());
        }
    }

    /** What one run collects from its calls. */
    private static final class Run {
        final ConcurrentLinkedQueue<Double> voiceToVoice = new ConcurrentLinkedQueue<>();
        /** Last voiced frame sent → first voiced frame played (the caller's playout emulated). */
        final ConcurrentLinkedQueue<Double> heard = new ConcurrentLinkedQueue<>();
        /** The caller's end of speech (tEnd) less its last voiced frame: quiet at the end of its utterance. */
        final ConcurrentLinkedQueue<Double> quietAfterVoice = new ConcurrentLinkedQueue<>();
        /** The first voiced frame's wait at the caller: played less received. */
        final ConcurrentLinkedQueue<Double> playoutWait = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Double> bargeIn = new ConcurrentLinkedQueue<>();
        /** Voice-to-voice of the turn answered after one tool round trip. */
        final ConcurrentLinkedQueue<Double> toolVoiceToVoice = new ConcurrentLinkedQueue<>();
        final AtomicInteger completed = new AtomicInteger();
        final AtomicInteger live = new AtomicInteger();
        final AtomicInteger peakLive = new AtomicInteger();
        final AtomicInteger underruns = new AtomicInteger();
        volatile double maxGapMs;
        final DoubleAdder callSeconds = new DoubleAdder();
        final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    }

    private void measure(Scenario scenario, int calls, boolean report) throws Exception {
        Run run = new Run();
        Map<String, double[]> before = stages();
        JsonObject statsBefore = stats();
        long[] cpuBefore = {cpuTicks(runtimePid), cpuTicks(fakesPid), cpuTicks(ProcessHandle.current().pid()),
            gatewayPid > 0 ? cpuTicks(gatewayPid) : 0};
        long machineBefore = machineBusyTicks();
        long started = System.nanoTime();
        long[] peakRss = {rssKb(runtimePid)};
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peakRss[0] = Math.max(peakRss[0], rssKb(runtimePid));
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        boolean serial = calls == 1;
        int total = serial ? serialCalls : calls;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            if (serial) {
                executor.submit(() -> {
                    for (int i = 0; i < total; i++) {
                        call(run);
                    }
                    return null;
                });
            } else {
                for (int i = 0; i < total; i++) {
                    long delay = i * rampMsPerCall;
                    executor.submit(() -> {
                        Thread.sleep(delay);
                        call(run);
                        return null;
                    });
                }
            }
        }
        double wall = (System.nanoTime() - started) / 1e9;
        sampler.interrupt();
        peakRss[0] = Math.max(peakRss[0], rssKb(runtimePid));
        long[] cpuAfter = {cpuTicks(runtimePid), cpuTicks(fakesPid), cpuTicks(ProcessHandle.current().pid()),
            gatewayPid > 0 ? cpuTicks(gatewayPid) : 0};
        long machineAfter = machineBusyTicks();
        Map<String, double[]> after = stages();
        JsonObject statsAfter = stats();
        if (!report) {
            return;
        }
        double runtimeCpu = (cpuAfter[0] - cpuBefore[0]) / (double) TICKS_PER_SECOND;
        double fakesCpu = (cpuAfter[1] - cpuBefore[1]) / (double) TICKS_PER_SECOND;
        double clientCpu = (cpuAfter[2] - cpuBefore[2]) / (double) TICKS_PER_SECOND;
        double callSeconds = run.callSeconds.sum();
        String label = label(scenario);
        String callsCell = serial ? "1 (" + total + " in a row)" : calls + " (" + run.peakLive.get() + ")";
        rows.add(String.format(Locale.ROOT, "| %s | %s | %d of %d | %s | %s | %s | %s | %s | %s | %d (%.0f ms) | %.1f ms |"
                        + " %.2f / %.2f / %.2f | %d MiB |",
                label, callsCell, run.completed.get(), total, percentiles(run.voiceToVoice),
                percentiles(run.heard).replaceAll(" \\(n=\\d+\\)", ""), toolTurn(run), percentiles(run.bargeIn), ownShare(scenario, run.voiceToVoice), histogramPercentiles(before, after, "own"),
                run.underruns.get(),
                run.maxGapMs, runtimeCpu * 1000 / callSeconds, runtimeCpu / wall, fakesCpu / wall, clientCpu / wall,
                peakRss[0] / 1024));
        stageRows.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |", label,
                serial ? "1" : String.valueOf(calls),
                histogram2(before, after, "end_of_turn"), histogram2(before, after, "llm_first_token"),
                histogram2(before, after, "tts_first_audio"), histogram2(before, after, "own"),
                histogram2(before, after, "voice_to_voice"), histogram2(before, after, "barge_in"),
                ownBeyondEndOfTurn(before, after)));
        StringBuilder note = new StringBuilder(String.format(Locale.ROOT,
                "%s, %d calls: %.1f s wall, %.0f call-seconds; CPU seconds runtime %.1f, fakes %.1f, callers %.1f;"
                        + " whole machine busy %.2f of %d cores (other processes %.2f), load average %s; runtime reports: ended %s",
                label, total, wall, callSeconds, runtimeCpu, fakesCpu, clientCpu,
                (machineAfter - machineBefore) / (double) TICKS_PER_SECOND / wall,
                Runtime.getRuntime().availableProcessors(),
                ((machineAfter - machineBefore) / (double) TICKS_PER_SECOND - runtimeCpu - fakesCpu - clientCpu) / wall,
                loadAverage(),
                diff(statsBefore.getJsonObject("ended"), statsAfter.getJsonObject("ended"))));
        if (gatewayPid > 0 && route.equals("gateway")) {
            // The gateway's CPU is part of the machine's "other processes" above.
            note.append(String.format(Locale.ROOT, "; gateway CPU %.1f s (%.2f cores, %.1f ms per call-second)",
                    (cpuAfter[3] - cpuBefore[3]) / (double) TICKS_PER_SECOND,
                    (cpuAfter[3] - cpuBefore[3]) / (double) TICKS_PER_SECOND / wall,
                    (cpuAfter[3] - cpuBefore[3]) * 1000.0 / TICKS_PER_SECOND / callSeconds));
        }
        note.append(String.format(Locale.ROOT, "; heard against received: the caller's quiet after its last voiced"
                + " frame p50 / p95 %s ms, the first voiced frame's wait in the caller's playout p50 / p95 %s ms",
                p50p95(run.quietAfterVoice), p50p95(run.playoutWait)));
        if (!run.failures.isEmpty()) {
            note.append("; client-side failures: ").append(new TreeMap<>(run.failures));
        }
        notes.add(note.toString());
        System.err.println(rows.get(rows.size() - 1));
        System.err.println(notes.get(notes.size() - 1));
    }

    private void call(Run run) {
        UUID callId = UUID.randomUUID();
        String org = "org-bench-" + callId;
        long start = System.nanoTime();
        FakeTwilioCaller caller = null;
        String stage = "connect";
        try {
            caller = FakeTwilioCaller.connect(vertx, mediaUrl(),
                    Map.of("callId", callId.toString(), "orgId", org,
                            "token", tokens.issue(org, callId, Instant.now().plusSeconds(600))), null);
            int live = run.live.incrementAndGet();
            run.peakLive.accumulateAndGet(live, Math::max);
            stage = "greeting";
            FakeTwilioCaller c = caller;
            Eventually.until("the greeting heard", BOUND, () -> c.firstAudioNanos() > 0);
            quiet(caller);
            for (int i = 0; i < 2; i++) {
                stage = "answer " + (i + 1);
                FakeCaller.Utterance question = caller.say(speech[i]);
                answered(run, question);
                quiet(caller);
            }
            stage = "answer 3";
            FakeCaller.Utterance menu = caller.say(speech[2]);
            answered(run, menu);
            Thread.sleep(1000);
            stage = "barge-in";
            FakeCaller.Utterance interruption = caller.say(speech[3]);
            run.bargeIn.add(interruption.bargeInMs(BOUND));
            stage = "answer 4";
            answered(run, interruption);
            quiet(caller);
            if (toolTurn) {
                stage = "tool answer";
                FakeCaller.Utterance withTool = caller.say(speech[4]);
                run.toolVoiceToVoice.add(withTool.voiceToVoiceMs(BOUND));
                quiet(caller);
            }
            stage = "hang-up";
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            run.completed.incrementAndGet();
        } catch (Throwable e) {
            String why = e instanceof AssertionError ? "no answer within " + BOUND.toSeconds() + " s"
                    : e.getClass().getSimpleName();
            if (caller != null && caller.closed().isDone()) {
                FakeCaller.Closed closed = caller.closed().getNow(null);
                why = "closed by the runtime (" + closed.code() + " " + closed.reason() + ")";
            }
            run.failures.computeIfAbsent(stage + ": " + why, k -> new AtomicInteger()).incrementAndGet();
            if (System.getenv("BENCH_DEBUG") != null && caller != null) {
                FakeTwilioCaller c = caller;
                System.err.printf("call %s failed at %s: %s; utterances %s; marks %d/%d; clears %d; received %d bytes%n",
                        callId, stage, e, c.utterances().stream().map(u -> (u.started().isDone() ? "s" : "-")
                                + (u.ended().isDone() ? "e" : "-") + (u.firstReply().isDone() ? "r" : "-")
                                + (u.cleared().isDone() ? "c" : "-")).toList(), c.echoedMarks().size(),
                        c.receivedMarks().size(), c.clears().size(), c.receivedAudio().length);
            }
        } finally {
            if (caller != null) {
                run.live.decrementAndGet();
                List<Double> gaps = caller.underrunGapsMs();
                run.underruns.addAndGet(gaps.size());
                for (double gap : gaps) {
                    synchronized (run) {
                        run.maxGapMs = Math.max(run.maxGapMs, gap);
                    }
                }
                caller.close();
                run.callSeconds.add((System.nanoTime() - start) / 1e9);
            }
        }
    }

    /** A plain turn answered: voice-to-voice as received and as heard, and what tells them apart. */
    private static void answered(Run run, FakeCaller.Utterance utterance) {
        run.voiceToVoice.add(utterance.voiceToVoiceMs(BOUND));
        run.heard.add(utterance.heardMs(BOUND));
        run.quietAfterVoice.add((utterance.ended().join() - utterance.lastVoiced().join()) / 1e6);
        run.playoutWait.add((utterance.firstHeard().join() - utterance.firstReply().join()) / 1e6);
    }

    private static String p50p95(ConcurrentLinkedQueue<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        if (sorted.isEmpty()) {
            return "–";
        }
        Collections.sort(sorted);
        return String.format(Locale.ROOT, "%.0f / %.0f", nearestRank(sorted, 0.50), nearestRank(sorted, 0.95));
    }

    /** The assistant's audio has played out (every mark echoed) and stays so for 400 ms. */
    private static void quiet(FakeTwilioCaller caller) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        long quietSince = -1;
        while (true) {
            boolean quiet = !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size();
            long now = System.nanoTime();
            if (!quiet) {
                quietSince = -1;
            } else if (quietSince < 0) {
                quietSince = now;
            } else if (now - quietSince >= TimeUnit.MILLISECONDS.toNanos(400)) {
                return;
            }
            if (now > deadline) {
                throw new AssertionError("still playing after " + BOUND);
            }
            Thread.sleep(50);
        }
    }

    /** The tool turn's percentiles and its median less the plain turns' median. */
    private String toolTurn(Run run) {
        if (!toolTurn || run.toolVoiceToVoice.isEmpty() || run.voiceToVoice.isEmpty()) {
            return "–";
        }
        List<Double> tool = new ArrayList<>(run.toolVoiceToVoice);
        List<Double> plain = new ArrayList<>(run.voiceToVoice);
        Collections.sort(tool);
        Collections.sort(plain);
        return String.format(Locale.ROOT, "%s, %+.0f", percentiles(run.toolVoiceToVoice),
                nearestRank(tool, 0.50) - nearestRank(plain, 0.50));
    }

    private static String percentiles(ConcurrentLinkedQueue<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        if (sorted.isEmpty()) {
            return "–";
        }
        Collections.sort(sorted);
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f (n=%d)", nearestRank(sorted, 0.50),
                nearestRank(sorted, 0.95), nearestRank(sorted, 0.99), sorted.size());
    }

    /**
     * Voice-to-voice less the waits the configuration imposes (the VAD's stop, the fakes' delays; on the realtime
     * engine the model's {@value #REALTIME_SILENCE_MS} ms of silence before it ends the turn): what is left is
     * the runtime's processing and hand-offs, plus loopback and the fakes' and the callers' own processing (an upper
     * bound of the runtime's share). Not given when the assistant holds its reply (responseDelaySeconds).
     */
    private String ownShare(Scenario s, ConcurrentLinkedQueue<Double> voiceToVoice) {
        if (s.responseDelay() > 0) {
            return "– (reply held " + Math.round(s.responseDelay() * 1000) + " ms)";
        }
        double waits = realtime() ? REALTIME_SILENCE_MS
                : Math.max(vadStopMillis, s.llmRequestDelay() * 1000) + s.sttMs() + s.llmMs() + s.ttsMs();
        ConcurrentLinkedQueue<Double> own = new ConcurrentLinkedQueue<>();
        voiceToVoice.forEach(v -> own.add(v - waits));
        return percentiles(own).replaceAll(" \\(n=\\d+\\)", "");
    }

    private static double nearestRank(List<Double> sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    // --- the runtime's histograms -------------------------------------------------------------------------------

    private static final Pattern BUCKET = Pattern.compile("^voice_runtime_stage_seconds_bucket\\{([^}]*)\\} (\\S+)");
    private static final Pattern TOTAL = Pattern.compile("^voice_runtime_stage_seconds_(sum|count)\\{([^}]*)\\} (\\S+)");
    private static final Pattern STAGE = Pattern.compile("stage=\"([^\"]+)\"");
    private static final Pattern LE = Pattern.compile("le=\"([^\"]+)\"");

    /** Stage → cumulative bucket counts, keyed "stage|le" flattened as stage → [le0, c0, le1, c1, …]. */
    private Map<String, double[]> stages() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + runtimePort + "/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
        Map<String, double[]> totals = new TreeMap<>();
        for (String line : response.body().split("\n")) {
            Matcher total = TOTAL.matcher(line);
            if (total.find()) {
                Matcher stage = STAGE.matcher(total.group(2));
                if (stage.find()) {
                    totals.put(stage.group(1) + "#" + total.group(1), new double[] {Double.parseDouble(total.group(3))});
                }
                continue;
            }
            Matcher m = BUCKET.matcher(line);
            if (!m.find()) {
                continue;
            }
            Matcher stage = STAGE.matcher(m.group(1));
            Matcher le = LE.matcher(m.group(1));
            if (stage.find() && le.find()) {
                double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
                buckets.computeIfAbsent(stage.group(1), k -> new TreeMap<>()).put(bound, Double.parseDouble(m.group(2)));
            }
        }
        Map<String, double[]> flat = new TreeMap<>();
        buckets.forEach((stage, map) -> {
            double[] values = new double[map.size() * 2];
            int i = 0;
            for (var entry : map.entrySet()) {
                values[i++] = entry.getKey();
                values[i++] = entry.getValue();
            }
            flat.put(stage, values);
        });
        flat.putAll(totals);
        return flat;
    }

    /** The q-quantile (ms) of the observations made between two scrapes, interpolated inside its bucket. */
    private static Double quantile(Map<String, double[]> before, Map<String, double[]> after, String stage, double q) {
        double[] b = before.get(stage);
        double[] a = after.get(stage);
        if (a == null) {
            return null;
        }
        int n = a.length / 2;
        double[] le = new double[n];
        double[] cumulative = new double[n];
        for (int i = 0; i < n; i++) {
            le[i] = a[2 * i];
            double prior = 0;
            if (b != null) {
                for (int j = 0; j < b.length / 2; j++) {
                    if (b[2 * j] == le[i]) {
                        prior = b[2 * j + 1];
                    }
                }
            }
            cumulative[i] = a[2 * i + 1] - prior;
        }
        double count = cumulative[n - 1];
        if (count <= 0) {
            return null;
        }
        double target = q * count;
        double previousLe = 0;
        double previousCount = 0;
        for (int i = 0; i < n; i++) {
            if (cumulative[i] >= target) {
                if (Double.isInfinite(le[i])) {
                    return previousLe * 1000;
                }
                double inBucket = cumulative[i] - previousCount;
                double fraction = inBucket <= 0 ? 1 : (target - previousCount) / inBucket;
                return (previousLe + (le[i] - previousLe) * fraction) * 1000;
            }
            previousLe = le[i];
            previousCount = cumulative[i];
        }
        return null;
    }

    private static String histogramPercentiles(Map<String, double[]> before, Map<String, double[]> after,
            String stage) {
        Double p50 = quantile(before, after, stage, 0.5);
        if (p50 == null) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.1f / %.1f / %.1f", p50, quantile(before, after, stage, 0.95),
                quantile(before, after, stage, 0.99));
    }

    /** Mean (ms) of the runtime's "own" less its "end_of_turn", per turn, between two scrapes. */
    private static String ownBeyondEndOfTurn(Map<String, double[]> before, Map<String, double[]> after) {
        double ownSum = delta(before, after, "own#sum");
        double ownCount = delta(before, after, "own#count");
        double eotSum = delta(before, after, "end_of_turn#sum");
        double eotCount = delta(before, after, "end_of_turn#count");
        if (ownCount <= 0 || eotCount <= 0) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.1f", (ownSum / ownCount - eotSum / eotCount) * 1000);
    }

    private static double delta(Map<String, double[]> before, Map<String, double[]> after, String key) {
        double[] a = after.get(key);
        double[] b = before.get(key);
        return (a == null ? 0 : a[0]) - (b == null ? 0 : b[0]);
    }

    private static String histogram2(Map<String, double[]> before, Map<String, double[]> after, String stage) {
        Double p50 = quantile(before, after, stage, 0.5);
        if (p50 == null) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.0f / %.0f", p50, quantile(before, after, stage, 0.95));
    }

    // --- the fakes' view of the runtime's reports ------------------------------------------------------------------

    private JsonObject stats() throws Exception {
        return new JsonObject(http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + controlPort + "/bench/stats")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static Map<String, Long> diff(JsonObject before, JsonObject after) {
        Map<String, Long> result = new TreeMap<>();
        for (String reason : after.fieldNames()) {
            long delta = after.getLong(reason) - (before.containsKey(reason) ? before.getLong(reason) : 0);
            if (delta != 0) {
                result.put(reason, delta);
            }
        }
        return result;
    }

    // --- /proc ------------------------------------------------------------------------------------------------------

    /** utime + stime of a process, in clock ticks (USER_HZ, 100 on Linux). */
    private static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // After "pid (comm) ": state is field 3, utime field 14, stime field 15 (1-based).
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (Exception e) {
            return 0;
        }
    }

    /** Busy time of all CPUs (everything but idle and iowait), in clock ticks, from /proc/stat. */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (Exception e) {
            return 0;
        }
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " / " + f[1];
        } catch (Exception e) {
            return "?";
        }
    }

    private static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            // The process is gone: reported as 0.
        }
        return 0;
    }
}
