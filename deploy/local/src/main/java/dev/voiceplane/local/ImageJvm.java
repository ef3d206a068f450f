package dev.voiceplane.local;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM a service's container image runs: the kit's {@code quarkus.jib.jvm-arguments} and
 * {@code quarkus.jib.environment-variables.*}, plus {@code -XX:MaxRAM} at the service's memory limit in
 * {@code deploy/k8s/base}, so that a service of the local stack sizes its heap as it does in its container (the
 * flags size the heap from the limit; without {@code -XX:MaxRAM} they would size it from this machine's memory).
 *
 * <p>Given to the service as {@code JDK_JAVA_OPTIONS} and environment variables, and only where the stack's own
 * environment does not set them: {@code JDK_JAVA_OPTIONS} set by the caller (deploy/bench/run sets it to the same
 * flags; {@code BENCH_JAVA_OPTIONS} replaces them there) wins as a whole.
 */
record ImageJvm(List<String> flags, Map<String, String> environment) {

    static final String KIT_CONFIG = "service-kit/src/main/resources/META-INF/microprofile-config.properties";
    static final String OPTIONS_VARIABLE = "JDK_JAVA_OPTIONS";
    private static final String ARGUMENTS = "quarkus.jib.jvm-arguments";
    private static final String ENVIRONMENT = "quarkus.jib.environment-variables.";
    /** The first {@code memory:} under a container's {@code limits:}; every container of a service has the same. */
    private static final Pattern MEMORY_LIMIT =
            Pattern.compile("limits:\\s*\\n(?:\\s+cpu:.*\\n)?\\s+memory:\\s*\"?(\\d+)(Mi|Gi)\"?");

    ImageJvm {
        flags = List.copyOf(flags);
        environment = Map.copyOf(environment);
    }

    /**
     * The image's JVM for {@code service}, read from the checkout at {@code home}; none when the kit's configuration
     * is not there (a stack run outside a checkout starts the services with the JVM's defaults, as before).
     */
    static Optional<ImageJvm> of(Path home, LocalService service) {
        Path config = home.resolve(KIT_CONFIG);
        if (!Files.isRegularFile(config)) {
            return Optional.empty();
        }
        Properties kit = new Properties();
        try (Reader reader = Files.newBufferedReader(config, StandardCharsets.UTF_8)) {
            kit.load(reader);
        } catch (IOException e) {
            throw new StackFailure("cannot read " + config + ": " + e.getMessage(), e);
        }
        List<String> flags = new ArrayList<>(Arrays.stream(kit.getProperty(ARGUMENTS, "").split(","))
                .map(String::strip).filter(flag -> !flag.isEmpty()).toList());
        memoryLimitMiB(home.resolve("deploy/k8s/base").resolve(service.name() + ".yaml"))
                .ifPresent(limit -> flags.add("-XX:MaxRAM=" + limit + "m"));
        Map<String, String> environment = new LinkedHashMap<>();
        kit.stringPropertyNames().stream().filter(name -> name.startsWith(ENVIRONMENT)).sorted()
                .forEach(name -> environment.put(name.substring(ENVIRONMENT.length()), kit.getProperty(name)));
        return Optional.of(new ImageJvm(flags, environment));
    }

    /** The memory limit of the manifest's first container, in MiB. */
    static Optional<Long> memoryLimitMiB(Path manifest) {
        if (!Files.isRegularFile(manifest)) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(manifest);
        } catch (IOException e) {
            throw new StackFailure("cannot read " + manifest + ": " + e.getMessage(), e);
        }
        Matcher limit = MEMORY_LIMIT.matcher(text);
        if (!limit.find()) {
            return Optional.empty();
        }
        long value = Long.parseLong(limit.group(1));
        return Optional.of(limit.group(2).equals("Gi") ? value * 1024 : value);
    }

    /** What to add to the service's environment, given the stack's own: only what {@code inherited} does not set. */
    Map<String, String> environmentOver(Map<String, String> inherited) {
        Map<String, String> added = new LinkedHashMap<>();
        environment.forEach((name, value) -> {
            if (!inherited.containsKey(name)) {
                added.put(name, value);
            }
        });
        if (!inherited.containsKey(OPTIONS_VARIABLE) && !flags.isEmpty()) {
            added.put(OPTIONS_VARIABLE, String.join(" ", flags));
        }
        return added;
    }
}
