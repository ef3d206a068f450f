package dev.voiceplane.local;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How this run is configured: the command-line flags and the {@code VOICE_*} environment variables. */
record StackOptions(Path home, Path dataDirectory, int gatewayPort, int postgresPort, boolean fresh, boolean help,
        boolean nativeExecutables, boolean talk) {

    static final String USAGE = """
            Usage: java -jar deploy/local/target/local-stack.jar [--fresh] [--native] [--talk] [--help]
            Normally started by deploy/local/up, which builds what is missing first; see deploy/README.md.

              --fresh   delete the data directory (database, generated keys) before starting
              --native  run each service's native executable (<module>/target/*-runner, deploy/native/build),
                        the JVM jar where a service has none; also VOICE_NATIVE=true
              --talk    once ready, set up an assistant to talk to in the browser: the provider keys from
                        DEEPGRAM_API_KEY, OPENAI_API_KEY and ELEVENLABS_API_KEY (optional), or asked for without
                        echo, become credentials; prints the address of the page (/talk) that calls it
              --help    print this text

            Environment: VOICE_HOME (repository root, default: the current directory),
            VOICE_DATA_DIR (default: $VOICE_HOME/.local), VOICE_HTTP_PORT (gateway, default 8080, 0 = any free
            port; the services and the console take the seven ports after it), VOICE_PG_PORT (default 15432),
            VOICE_API_KEYS, VOICE_INTERNAL_TOKEN, VOICE_ENCRYPTION_KEYSET (generated and kept in the data directory when unset).""";

    static StackOptions parse(List<String> args, Map<String, String> environment) {
        boolean fresh = false;
        boolean help = false;
        boolean nativeExecutables = flag(environment, "VOICE_NATIVE");
        boolean talk = false;
        for (String arg : args) {
            switch (arg) {
                case "--fresh" -> fresh = true;
                case "--native" -> nativeExecutables = true;
                case "--talk" -> talk = true;
                case "--help", "-h" -> help = true;
                default -> throw new StackFailure("unknown option " + arg + "\n\n" + USAGE);
            }
        }
        Path home = Path.of(value(environment, "VOICE_HOME").orElse("")).toAbsolutePath().normalize();
        Path dataDirectory = value(environment, "VOICE_DATA_DIR")
                .map(directory -> Path.of(directory).toAbsolutePath().normalize())
                .orElse(home.resolve(".local"));
        return new StackOptions(home, dataDirectory, port(environment, "VOICE_HTTP_PORT", 8080),
                port(environment, "VOICE_PG_PORT", 15432), fresh, help, nativeExecutables, talk);
    }

    /** A variable's value; a blank one counts as unset. */
    static Optional<String> value(Map<String, String> environment, String name) {
        return Optional.ofNullable(environment.get(name)).filter(value -> !value.isBlank());
    }

    private static boolean flag(Map<String, String> environment, String name) {
        Optional<String> configured = value(environment, name).map(String::strip);
        if (configured.isEmpty() || configured.get().equals("false") || configured.get().equals("0")) {
            return false;
        }
        if (configured.get().equals("true") || configured.get().equals("1")) {
            return true;
        }
        throw new StackFailure(name + " must be true or false, not '" + configured.get() + "'");
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
