package dev.voiceplane.kit.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A PostgreSQL of one test class's own, which the test can stop and start again on the same data directory and
 * port, to see what a service answers while its database is down and that it recovers, without disturbing the
 * shared database of every other test ({@link TestEnvironment}). Register it on the class only:
 * {@code @QuarkusTestResource(value = StoppableDatabase.class, restrictToAnnotatedClass = true)}; its datasource
 * settings replace the shared ones (it starts after {@link TestEnvironment}). Same fast settings as the shared one.
 */
public class StoppableDatabase implements QuarkusTestResourceLifecycleManager {

    private static Path directory;
    private static int port;
    private static EmbeddedPostgres running;

    @Override
    public Map<String, String> start() {
        try {
            directory = Files.createTempDirectory("stoppable-postgres");
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        startDatabase();
        return Map.of(
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://localhost:" + port + "/postgres",
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    /** Later than {@link TestEnvironment} (order 0), so that these datasource settings are the ones applied. */
    @Override
    public int order() {
        return 100;
    }

    /** Stops PostgreSQL as an operator would ({@code pg_ctl stop -m fast}: open connections are terminated). */
    public static synchronized void stopDatabase() {
        if (running != null) {
            try {
                running.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            running = null;
        }
    }

    /** Starts it again, on the same data directory and port; returns once it accepts connections. */
    public static synchronized void startDatabase() {
        if (running == null) {
            try {
                running = EmbeddedPostgres.builder().setDataDirectory(directory).setCleanDataDirectory(false)
                        .setPort(port).start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the stoppable PostgreSQL", e);
            }
        }
    }

    @Override
    public void stop() {
        stopDatabase();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; the next run makes its own
        }
    }
}
