package dev.voiceplane.local;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomize directory with {@code kubectl kustomize} and validates the result with the offline schema
 * validator in {@code deploy/k8s/validate} (installed by the build from its package-lock.json).
 */
final class Kubectl {

    /** What a command printed (stdout and stderr together) and how it exited. */
    record Result(int exitCode, String output) {

        boolean succeeded() {
            return exitCode == 0;
        }
    }

    private Kubectl() {
    }

    static Result kustomize(Path directory) {
        return run(List.of("kubectl", "kustomize", directory.toString()), null);
    }

    static Result validate(String manifests) {
        Path validator = RepositoryFiles.home().resolve("deploy/k8s/validate/validate.mjs");
        return run(List.of("node", validator.toString()), manifests);
    }

    private static Result run(List<String> command, String input) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    return "cannot read the output: " + e;
                }
            });
            try (OutputStream stdin = process.getOutputStream()) {
                if (input != null) {
                    stdin.write(input.getBytes(StandardCharsets.UTF_8));
                }
            }
            // A bound so that a hanging tool fails the test instead of the build; not a timing assertion.
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish");
            }
            return new Result(process.exitValue(), output.join());
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command)
                    + " (kubectl and node must be on the PATH; see docs/kubernetes.md): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
