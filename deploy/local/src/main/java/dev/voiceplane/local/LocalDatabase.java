package dev.voiceplane.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

/**
 * The embedded PostgreSQL (real binaries from a Maven artifact), its data kept between runs. As in production,
 * each service gets its own role, which owns the service's schema and has it as search_path.
 *
 * <p>Durable as a production database is: the embedded library starts PostgreSQL for throw-away test databases
 * ({@code -F}, i.e. fsync off, and {@code synchronous_commit=off}), which loses acknowledged writes when
 * PostgreSQL stops abruptly (2026-11-25: 9 of 5,539 after an immediate stop). Here every commit is on disk before
 * it is acknowledged. The tests' databases keep the fast settings (the kit's {@code TestEnvironment}).
 */
final class LocalDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private LocalDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static LocalDatabase start(Path dataDirectory, int port, Path log) {
        Redirect toLog = Redirect.appendTo(log.toFile());
        try {
            return new LocalDatabase(EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    // Later options win over the library's -F: a commit is flushed to disk before it returns.
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on")
                    // the first run also unpacks the binaries and runs initdb
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setOutputRedirector(toLog)
                    .setErrorRedirector(toLog)
                    .start());
        } catch (IOException | IllegalStateException e) {
            throw new StackFailure("PostgreSQL did not start on port " + port + " (is the port taken? its log: "
                    + log + "): " + e.getMessage(), e);
        }
    }

    int port() {
        return postgres.getPort();
    }

    /** The database URL; the role's search_path selects the schema. */
    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    /**
     * Makes sure each service's role exists with its password ({@code passwords}, by service), owns its schema and
     * uses it. Idempotent: runs at every start, on one connection for all of them (before any service starts, so a
     * start does not wait for a connection per service). Role and schema names come from {@link LocalService},
     * derived from DNS-label service names.
     */
    void provision(Map<LocalService, String> passwords) {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            for (Map.Entry<LocalService, String> entry : passwords.entrySet()) {
                provision(statement, entry.getKey(), entry.getValue());
            }
        } catch (SQLException e) {
            throw new StackFailure("cannot connect to the database to prepare the services' roles: " + e.getMessage(), e);
        }
    }

    private static void provision(Statement statement, LocalService service, String password) {
        String role = service.role();
        String schema = service.schema();
        try {
            statement.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + role + "') "
                    + "THEN CREATE ROLE " + role + "; END IF; END $$");
            statement.execute("ALTER ROLE " + role + " WITH LOGIN PASSWORD '" + password + "'");
            statement.execute("CREATE SCHEMA IF NOT EXISTS " + schema + " AUTHORIZATION " + role);
            statement.execute("ALTER ROLE " + role + " SET search_path = " + schema);
        } catch (SQLException e) {
            throw new StackFailure("cannot prepare the database role " + role + " and schema " + schema + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            System.err.println("PostgreSQL did not stop cleanly: " + e.getMessage());
        }
    }
}
