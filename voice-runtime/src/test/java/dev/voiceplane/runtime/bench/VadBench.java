package dev.voiceplane.runtime.bench;

import dev.voiceplane.runtime.audio.MuLaw;
import dev.voiceplane.runtime.audio.SileroModel;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code deploy/bench/vad}: what Silero VAD costs per call on this machine, batched (one inference for every call's
 * window, as the runtime's VAD thread does) against unbatched (one inference per call's window). Every call plays
 * real speech (espeak-ng, μ-law 8 kHz, each call at a different offset into a few sentences) window by window, as
 * a tick of the VAD thread sees it. Prints a Markdown table: per number of calls, the time of one tick and per call-
 * window (wall and CPU of this thread, median of the measured ticks), and the share of a core that calls × 31.25
 * windows a second take.
 *
 * <p>Settings (environment): BENCH_VAD_CALLS (default {@code 1,16,100,500}), BENCH_VAD_TICKS (measured ticks per
 * run, default 60, after as many to warm up).
 */
public final class VadBench {

    private VadBench() {
    }

    public static void main(String[] args) {
        int[] calls = Arrays.stream(env("BENCH_VAD_CALLS", "1,16,100,500").split(",")).map(String::trim)
                .mapToInt(Integer::parseInt).toArray();
        int ticks = Integer.parseInt(env("BENCH_VAD_TICKS", "60"));
        short[] speech = MuLaw.decode(concat(
                SpeechFixtures.mulaw8k("Could you tell me what time the harbour cafe opens tomorrow morning?"),
                SpeechFixtures.mulaw8k("I would like to book a table for four people at seven in the evening."),
                SpeechFixtures.mulaw8k("Do you have any vegetarian dishes on the menu this week?")));
        int window = SileroModel.window(8000);
        int context = SileroModel.context(8000);
        int windows = speech.length / window;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(Locale.ROOT, "Silero VAD v5, ONNX Runtime %s, 1 intra-op thread, 8 kHz windows (32 ms), "
                + "%d measured ticks after %d to warm up; load average before: %s%n%n", ortVersion(), ticks, ticks,
                loadAverage());
        System.out.println("| calls | mode | tick (median) | per call-window (wall) | per call-window (CPU) | "
                + "core share at 31.25 windows/s |");
        System.out.println("|---:|---|---:|---:|---:|---:|");
        long rssBefore = residentKib();
        long rssLoaded;
        long rssRun;
        try (SileroModel model = SileroModel.load()) {
            rssLoaded = residentKib();
            for (int n : calls) {
                for (boolean batched : new boolean[] {false, true}) {
                    float[][] inputs = new float[n][context + window];
                    float[][] states = new float[n][SileroModel.STATE];
                    float[][] one = new float[1][];
                    float[][] oneState = new float[1][];
                    long[] wall = new long[ticks];
                    long[] cpu = new long[ticks];
                    for (int t = 0; t < 2 * ticks; t++) {
                        for (int c = 0; c < n; c++) {
                            int at = ((c * 37 + t) % windows) * window;
                            System.arraycopy(inputs[c], window, inputs[c], 0, context);
                            for (int i = 0; i < window; i++) {
                                inputs[c][context + i] = speech[at + i] / 32768f;
                            }
                        }
                        long cpuBefore = threads.getCurrentThreadCpuTime();
                        long before = System.nanoTime();
                        if (batched) {
                            model.run(8000, inputs, states, n);
                        } else {
                            for (int c = 0; c < n; c++) {
                                one[0] = inputs[c];
                                oneState[0] = states[c];
                                model.run(8000, one, oneState, 1);
                            }
                        }
                        if (t >= ticks) {
                            wall[t - ticks] = System.nanoTime() - before;
                            cpu[t - ticks] = threads.getCurrentThreadCpuTime() - cpuBefore;
                        }
                    }
                    Arrays.sort(wall);
                    Arrays.sort(cpu);
                    double tickUs = wall[ticks / 2] / 1e3;
                    double perWall = tickUs / n;
                    double perCpu = cpu[ticks / 2] / 1e3 / n;
                    System.out.printf(Locale.ROOT, "| %d | %s | %.0f µs | %.1f µs | %.1f µs | %.1f %% |%n", n,
                            batched ? "batched" : "unbatched", tickUs, perWall, perCpu,
                            n * 31.25 * perCpu / 1e4);
                }
            }
            rssRun = residentKib();
        }
        System.out.printf(Locale.ROOT, "%nload average after: %s%n", loadAverage());
        // What ONNX Runtime and the model add to a process (the runtime loads them at its start, "voice activity").
        System.out.printf(Locale.ROOT, "resident memory: %.0f MiB before the model was loaded, %+.0f MiB once ONNX "
                + "Runtime and the model were loaded, %+.0f MiB after the runs%n", rssBefore / 1024.0,
                (rssLoaded - rssBefore) / 1024.0, (rssRun - rssBefore) / 1024.0);
    }

    /** This process's resident set (VmRSS), in KiB. */
    private static long residentKib() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read /proc/self/status", e);
        }
        return -1;
    }

    private static String ortVersion() {
        Package p = ai.onnxruntime.OrtEnvironment.class.getPackage();
        return p != null && p.getImplementationVersion() != null ? p.getImplementationVersion() : "(see the pom)";
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static byte[] concat(byte[]... parts) {
        int length = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
