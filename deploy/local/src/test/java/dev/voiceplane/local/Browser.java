package dev.voiceplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real Chromium, the distribution's ({@code /usr/bin/chromium}, Debian package {@code chromium}; never a downloaded
 * browser), headless, with a fake microphone that plays a WAV file, driven through playwright-core by
 * {@code deploy/local/browser/drive.mjs} (installed by the build from its lock file). When Chromium is missing it is
 * installed as espeak-ng and sox are for the speech fixtures (run as root; {@code .ci/run} does it beforehand);
 * otherwise the test fails saying so: it never passes without a browser.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final long ANSWER_SECONDS = 90;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process driver;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    private int nextId = 1;

    private Browser(Process driver) {
        this.driver = driver;
        Thread.ofPlatform().daemon().name("browser-answers").start(() -> read(driver.getInputStream(), true));
        Thread.ofPlatform().daemon().name("browser-console").start(() -> read(driver.getErrorStream(), false));
    }

    /** Chromium with {@code microphone} as its only microphone, played once from the start of each capture. */
    static Browser launch(Path microphone) throws Exception {
        ensureChromium();
        Path drive = RepositoryFiles.home().resolve("deploy/local/browser/drive.mjs");
        if (!Files.isDirectory(drive.resolveSibling("node_modules/playwright-core"))) {
            throw new AssertionError("playwright-core is not installed: deploy/local/browser/install (the build runs it"
                    + " before the tests, in process-test-resources)");
        }
        Process process = new ProcessBuilder("node", drive.toString()).directory(drive.getParent().toFile()).start();
        Browser browser = new Browser(process);
        try {
            String version = browser.send(browser.command("launch").put("executable", CHROMIUM.toString())
                    .set("args", JSON.valueToTree(List.of("--headless", "--no-sandbox", "--disable-gpu",
                            "--disable-quic", "--no-first-run", "--disable-background-networking",
                            "--disable-component-update", "--disable-sync", "--use-fake-device-for-media-stream",
                            "--use-fake-ui-for-media-stream",
                            "--use-file-for-fake-audio-capture=" + microphone + "%noloop")))).asText();
            System.out.println("[browser] Chromium " + version);
            return browser;
        } catch (Exception | Error e) {
            browser.close();
            throw e;
        }
    }

    private static void ensureChromium() throws IOException, InterruptedException {
        if (Files.isExecutable(CHROMIUM)) {
            return;
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root && Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            if (!install()) {
                // A fresh machine may not have the package lists yet.
                new ProcessBuilder("apt-get", "update", "-q").inheritIO().start().waitFor();
                install();
            }
        }
        if (!Files.isExecutable(CHROMIUM)) {
            throw new AssertionError("the browser test needs Chromium at " + CHROMIUM + " (Debian package chromium: "
                    + "apt-get install chromium; .ci/run installs it when run as root)"
                    + (root ? ", and apt-get could not install it" : ""));
        }
    }

    private static boolean install() throws IOException, InterruptedException {
        ProcessBuilder install = new ProcessBuilder("apt-get", "install", "-y", "-q", "chromium").inheritIO();
        install.environment().put("DEBIAN_FRONTEND", "noninteractive");
        return install.start().waitFor() == 0;
    }

    /** Opens {@code url} in a fresh context (its own storage). */
    Page open(String url) throws Exception {
        return new Page(send(command("open").put("url", url)).asInt());
    }

    /** One page: clicks, typing and expressions evaluated in it. */
    final class Page {
        private final int id;

        private Page(int id) {
            this.id = id;
        }

        void click(String selector) throws Exception {
            send(on("click").put("selector", selector));
        }

        /** A click wherever the element is, enabled or not (as a person pressing a disabled button). */
        void forceClick(String selector) throws Exception {
            send(on("click").put("selector", selector).put("force", true));
        }

        void fill(String selector, String value) throws Exception {
            send(on("fill").put("selector", selector).put("value", value));
        }

        void press(String selector, String key) throws Exception {
            send(on("press").put("selector", selector).put("key", key));
        }

        /** The value of a JavaScript expression in the page (a promise is awaited), as JSON. */
        JsonNode evaluate(String expression) throws Exception {
            return send(on("evaluate").put("expression", expression));
        }

        String text(String selector) throws Exception {
            return evaluate("document.querySelector(" + JSON.writeValueAsString(selector) + ").textContent").asText();
        }

        /** The page's uncaught errors so far. */
        List<String> errors() throws Exception {
            List<String> errors = new ArrayList<>();
            send(on("errors")).forEach(error -> errors.add(error.asText()));
            return errors;
        }

        void close() throws Exception {
            send(on("close"));
        }

        private ObjectNode on(String op) {
            return command(op).put("page", id);
        }
    }

    private ObjectNode command(String op) {
        return JSON.createObjectNode().put("id", nextId++).put("op", op);
    }

    private synchronized JsonNode send(ObjectNode command) throws Exception {
        OutputStream input = driver.getOutputStream();
        input.write((command.toString() + "\n").getBytes(StandardCharsets.UTF_8));
        input.flush();
        String line = answers.poll(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (line == null) {
            throw new AssertionError("the browser did not answer " + command + " within " + ANSWER_SECONDS
                    + " s; its output:\n" + String.join("\n", log));
        }
        JsonNode answer = JSON.readTree(line);
        if (answer.path("id").asInt() != command.path("id").asInt()) {
            throw new AssertionError("the browser answered " + line + " to " + command);
        }
        if (!answer.path("ok").asBoolean()) {
            throw new AssertionError("the browser could not do " + command + ": " + answer.path("error").asText());
        }
        return answer.path("value");
    }

    private void read(java.io.InputStream stream, boolean isAnswers) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (isAnswers && line.startsWith("{")) {
                    answers.add(line);
                } else {
                    System.out.println("[browser] " + line);
                    log.add(line);
                }
            }
        } catch (IOException e) {
            // the driver is gone; a command waiting for its answer fails on its own
        }
    }

    @Override
    public void close() throws Exception {
        if (driver.isAlive()) {
            try {
                send(command("quit"));
            } catch (Exception | AssertionError e) {
                System.out.println("[browser] did not quit: " + e.getMessage());
            }
        }
        driver.getOutputStream().close();
        if (!driver.waitFor(20, TimeUnit.SECONDS)) {
            driver.descendants().forEach(ProcessHandle::destroyForcibly);
            driver.destroyForcibly();
        }
    }
}
