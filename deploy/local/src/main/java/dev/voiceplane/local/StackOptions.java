package dev.voiceplane.local;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How this run is configured: the command-line flags and the {@code VOICE_*} environment variables. */
record StackOptions(Path home, Path dataDirectory, int gatewayPort, int postgresPort, boolean fresh, boolean help) {

    static final String USAGE = """
            Usage: java -jar deploy/local/target/local-stack.jar [--fresh] [--help]
            Normally started by deploy/local/up, which builds what is missing first; see deploy/README.md.

              --fresh   delete the data directory (database, generated keys) before starting
              --help    print this text

            Environment: VOICE_HOME (repository root, default: the current directory),
            VOICE_DATA_DIR (default: $VOICE_HOME/.local), VOICE_HTTP_PORT (gateway, default 8080, 0 = any free
            port; the services take the five ports after it), VOICE_PG_PORT (default 15432), VOICE_API_KEYS,
            VOICE_INTERNAL_TOKEN, VOICE_ENCRYPTION_KEYSET (generated and kept in the data directory when unset).""";

    static StackOptions parse(List<String> args, Map<String, String> environment) {
        boolean fresh = false;
        boolean help = false;
        for (String arg : args) {
            switch (arg) {
                case "--fresh" -> fresh = true;
                case "--help", "-h" -> help = true;
                default -> throw new StackFailure("unknown option " + arg + "\n\n" + USAGE);
            }
        }
        Path home = Path.of(value(environment, "VOICE_HOME").orElse("")).toAbsolutePath().normalize();
        Path dataDirectory = value(environment, "VOICE_DATA_DIR")
                .map(directory -> Path.of(directory).toAbsolutePath().normalize())
                .orElse(home.resolve(".local"));
        return new StackOptions(home, dataDirectory, port(environment, "VOICE_HTTP_PORT", 8080),
                port(environment, "VOICE_PG_PORT", 15432), fresh, help);
    }

    /** A variable's value; a blank one counts as unset. */
    static Optional<String> value(Map<String, String> environment, String name) {
        return Optional.ofNullable(environment.get(name)).filter(value -> !value.isBlank());
    }

    private static int port(Map<String, String> environment, String name, int fallback) {
        Optional<String> configured = value(environment, name);
        if (configured.isEmpty()) {
            return fallback;
        }
        String text = configured.get().strip();
        if (text.matches("\\d{1,5}") && Integer.parseInt(text) <= 65535) {
            return Integer.parseInt(text);
        }
        throw new StackFailure(name + " must be a port number between 0 and 65535, not '" + configured.get() + "'");
    }
}
