package dev.voiceplane.runtime.fake;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real speech for tests, made at test time (no audio is committed): espeak-ng speaks the text, sox trims the
 * leading and trailing silence and converts it to the raw formats the carriers and providers use:
 * <ul>
 * <li>{@link #mulaw8k}: G.711 μ-law, 8 kHz, mono, no header (Twilio Media Streams, Deepgram {@code mulaw});</li>
 * <li>{@link #pcm16k}: signed 16-bit little-endian PCM, 16 kHz, mono (web calls, Deepgram {@code linear16});</li>
 * <li>{@link #pcm24k}: the same at 24 kHz (OpenAI TTS {@code response_format=pcm}).</li>
 * </ul>
 * Results are cached in {@code target/speech/}, keyed by the text. When espeak-ng or sox is missing and the tests
 * run as root (CI, a fresh machine), they are installed once with {@code apt-get install -y espeak-ng sox}.
 * Also holds the small audio helpers the fakes share (μ-law decoding, RMS).
 */
public final class SpeechFixtures {

    private static final Path DIR = Path.of(System.getProperty("voice.speech.dir", "target/speech"));
    private static boolean toolsChecked;

    private SpeechFixtures() {
    }

    /** The text spoken, as raw μ-law 8 kHz mono. */
    public static byte[] mulaw8k(String text) {
        return speech(text, "ulaw8k");
    }

    /** The text spoken, as raw PCM16 LE 16 kHz mono. */
    public static byte[] pcm16k(String text) {
        return speech(text, "pcm16k");
    }

    /** The text spoken, as raw PCM16 LE 24 kHz mono. */
    public static byte[] pcm24k(String text) {
        return speech(text, "pcm24k");
    }

    /** {@code millis} of μ-law silence (0xFF is μ-law's zero). */
    public static byte[] mulawSilence(int millis) {
        byte[] silence = new byte[millis * 8];
        java.util.Arrays.fill(silence, (byte) 0xFF);
        return silence;
    }

    /** {@code millis} of PCM16 silence at {@code sampleRate}. */
    public static byte[] pcmSilence(int millis, int sampleRate) {
        return new byte[millis * sampleRate / 1000 * 2];
    }

    /** Audio seconds in {@code bytes} of μ-law 8 kHz. */
    public static double mulawSeconds(int bytes) {
        return bytes / 8000.0;
    }

    /** G.711 μ-law byte to a linear 16-bit sample. */
    public static short mulawToLinear(byte mulaw) {
        int u = ~mulaw & 0xFF;
        int t = ((u & 0x0F) << 3) + 0x84;
        t <<= (u & 0x70) >> 4;
        return (short) ((u & 0x80) != 0 ? 0x84 - t : t - 0x84);
    }

    /** Decodes μ-law bytes to linear samples. */
    public static short[] decodeMulaw(byte[] mulaw, int offset, int length) {
        short[] samples = new short[length];
        for (int i = 0; i < length; i++) {
            samples[i] = mulawToLinear(mulaw[offset + i]);
        }
        return samples;
    }

    /** Decodes PCM16 LE bytes to samples (a trailing odd byte is ignored). */
    public static short[] decodePcm16le(byte[] pcm, int offset, int length) {
        short[] samples = new short[length / 2];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) ((pcm[offset + 2 * i] & 0xFF) | (pcm[offset + 2 * i + 1] << 8));
        }
        return samples;
    }

    /** Root mean square of the samples, in 16-bit units (0 for none). */
    public static double rms(short[] samples) {
        if (samples.length == 0) {
            return 0;
        }
        double sum = 0;
        for (short s : samples) {
            sum += (double) s * s;
        }
        return Math.sqrt(sum / samples.length);
    }

    private static synchronized byte[] speech(String text, String format) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no text to speak");
        }
        try {
            Files.createDirectories(DIR);
            String key = key(text);
            Path out = DIR.resolve(key + "." + format);
            if (!Files.exists(out)) {
                make(text, key);
            }
            return Files.readAllBytes(out);
        } catch (IOException e) {
            throw new IllegalStateException("speech fixture for '" + text + "' failed: " + e.getMessage(), e);
        }
    }

    /** Makes all three formats at once: espeak-ng is the slow part, the conversions are cheap. */
    private static void make(String text, String key) throws IOException {
        ensureTools();
        Path work = Files.createTempDirectory(DIR, "work-");
        try {
            Path spoken = work.resolve("u.wav");
            Path trimmed = work.resolve("t.wav");
            run("espeak-ng", "-v", "en-us", "-s", "170", "-w", spoken.toString(), text);
            run("sox", spoken.toString(), trimmed.toString(), "silence", "1", "0.02", "0.5%", "reverse", "silence", "1",
                    "0.02", "0.5%", "reverse");
            convert(trimmed, work, key + ".ulaw8k", "-r", "8000", "-c", "1", "-e", "mu-law", "-t", "raw");
            convert(trimmed, work, key + ".pcm16k", "-r", "16000", "-c", "1", "-e", "signed", "-b", "16", "-t", "raw");
            convert(trimmed, work, key + ".pcm24k", "-r", "24000", "-c", "1", "-e", "signed", "-b", "16", "-t", "raw");
        } finally {
            try (var files = Files.list(work)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(work);
        }
    }

    private static void convert(Path trimmed, Path work, String name, String... format) throws IOException {
        Path tmp = work.resolve(name);
        List<String> command = new ArrayList<>(List.of("sox", trimmed.toString()));
        command.addAll(List.of(format));
        command.add(tmp.toString());
        run(command.toArray(String[]::new));
        // Atomic, so a concurrent reader (another fork of the build) never sees half a file.
        Files.move(tmp, DIR.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void ensureTools() throws IOException {
        if (toolsChecked) {
            return;
        }
        if (!(onPath("espeak-ng") && onPath("sox"))) {
            if (!"root".equals(System.getProperty("user.name"))) {
                throw new IllegalStateException("speech fixtures need espeak-ng and sox: apt-get install -y espeak-ng sox");
            }
            if (!tryRun("apt-get", "install", "-y", "-q", "espeak-ng", "sox")) {
                // A fresh machine may not have the package lists yet.
                tryRun("apt-get", "update", "-q");
                run("apt-get", "install", "-y", "-q", "espeak-ng", "sox");
            }
        }
        toolsChecked = true;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void run(String... command) throws IOException {
        if (!tryRun(command)) {
            throw new IOException("command failed: " + String.join(" ", command));
        }
    }

    private static boolean tryRun(String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
        Process process = builder.start();
        try {
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return false;
            }
            if (process.exitValue() != 0) {
                System.err.println(String.join(" ", command) + " exited " + process.exitValue() + ": "
                        + new String(output, StandardCharsets.UTF_8));
                return false;
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }

    private static String key(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            String slug = text.toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
            return (slug.length() > 40 ? slug.substring(0, 40) : slug) + "-" + HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
