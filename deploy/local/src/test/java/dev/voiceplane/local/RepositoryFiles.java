package dev.voiceplane.local;

import java.nio.file.Path;

/** Where the tests find the repository: {@code voice.home}, set by the build to the root of the checkout. */
final class RepositoryFiles {

    private RepositoryFiles() {
    }

    static Path home() {
        return Path.of(System.getProperty("voice.home", "../..")).toAbsolutePath().normalize();
    }

    static Path ingress() {
        return home().resolve(LocalStack.INGRESS);
    }

    static Path kubernetesBase() {
        return kubernetes().resolve("base");
    }

    static Path kubernetes() {
        return home().resolve("deploy").resolve("k8s");
    }
}
