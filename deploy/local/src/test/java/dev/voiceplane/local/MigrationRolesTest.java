package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes migration design, run for real with credential-service's jar: the database layout of
 * deploy/k8s/components/cloudnative-pg/roles-and-schemas.sql, then the service's migrate-only mode as the migration
 * role (what the init container does), then the service as the service role, which serves requests but cannot
 * change the schema. A unit test (surefire), not an IT: failsafe's classpath would hold the PostgreSQL binaries twice.
 */
class MigrationRolesTest {

    private static final String MIGRATOR_PASSWORD = "migrator-password";
    private static final String SERVICE_PASSWORD = "service-password";

    @Test
    void theMigrationRoleMigratesAndExitsAndTheServiceRoleServesButCannotChangeTheSchema(@TempDir Path directory)
            throws Exception {
        Path jar = RepositoryFiles.home().resolve("credential-service/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(jar), "build credential-service first: " + jar);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(directory.resolve("pgdata"))
                .setCleanDataDirectory(true).setPGStartupWait(Duration.ofSeconds(60)).start()) {
            String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
            try (Connection admin = postgres.getPostgresDatabase().getConnection();
                    Statement statement = admin.createStatement()) {
                statement.execute(Files.readString(
                        RepositoryFiles.kubernetes().resolve("components/cloudnative-pg/roles-and-schemas.sql")));
                statement.execute("ALTER ROLE credential_migrator LOGIN PASSWORD '" + MIGRATOR_PASSWORD + "'");
                statement.execute("ALTER ROLE credential_service LOGIN PASSWORD '" + SERVICE_PASSWORD + "'");
            }
            Map<String, String> environment = new HashMap<>();
            environment.put("VOICE_DB_URL", url);
            environment.put("VOICE_ENCRYPTION_KEYSET", newKeyset());
            environment.put("VOICE_API_KEYS", "org-a:key-a");
            environment.put("VOICE_INTERNAL_TOKEN", "internal");
            environment.put("VOICE_HTTP_PORT", Integer.toString(StackUnderTest.freePortBlock(1)));

            // The init container: migrate as the owner of the schema, then exit 0.
            Map<String, String> migrate = new HashMap<>(environment);
            migrate.put("VOICE_DB_USER", "credential_migrator");
            migrate.put("VOICE_DB_PASSWORD", MIGRATOR_PASSWORD);
            migrate.put("VOICE_DB_MIGRATE_ONLY", "true");
            migrate.put("VOICE_DB_MIGRATE_AT_START", "true");
            Process migration = start(jar, migrate, directory.resolve("migrate.log"));
            assertTrue(migration.waitFor(3, TimeUnit.MINUTES), "the migration did not exit");
            assertEquals(0, migration.exitValue(), Files.readString(directory.resolve("migrate.log")));
            try (Connection owner = DriverManager.getConnection(url, "credential_migrator", MIGRATOR_PASSWORD);
                    ResultSet tables = owner.createStatement().executeQuery(
                            "SELECT count(*) FROM pg_tables WHERE schemaname = 'credential' AND tableowner = 'credential_migrator'")) {
                tables.next();
                assertTrue(tables.getInt(1) >= 2, "the migration created no table in schema credential");
            }

            // The service: rows yes, schema no.
            try (Connection service = DriverManager.getConnection(url, "credential_service", SERVICE_PASSWORD);
                    Statement statement = service.createStatement()) {
                SQLException refused = assertThrows(SQLException.class,
                        () -> statement.execute("CREATE TABLE credential.intruder (id int)"));
                assertEquals("42501", refused.getSQLState(), refused.getMessage()); // insufficient_privilege
                assertThrows(SQLException.class, () -> statement.execute("DROP TABLE credential.flyway_schema_history"));
                assertThrows(SQLException.class, () -> statement.execute("CREATE TABLE public.intruder (id int)"));
            }
            Map<String, String> serve = new HashMap<>(environment);
            serve.put("VOICE_DB_USER", "credential_service");
            serve.put("VOICE_DB_PASSWORD", SERVICE_PASSWORD);
            serve.put("VOICE_DB_MIGRATE_AT_START", "false");
            Process running = start(jar, serve, directory.resolve("service.log"));
            try {
                String base = "http://localhost:" + serve.get("VOICE_HTTP_PORT");
                awaitReady(base, running, directory.resolve("service.log"));
                HttpResponse<String> stored = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(base + "/credential/0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d"))
                        .header("Authorization", "Bearer key-a").header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"provider\":\"openai\",\"apiKey\":\"sk-test\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, stored.statusCode(), stored.body());
            } finally {
                running.destroy();
                if (!running.waitFor(30, TimeUnit.SECONDS)) {
                    running.destroyForcibly();
                }
            }
        }
    }

    private static Process start(Path jar, Map<String, String> environment, Path log) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", jar.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    private static void awaitReady(String base, Process process, Path log) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the service exited: " + Files.readString(log));
            }
            try {
                if (client.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            process.waitFor(200, TimeUnit.MILLISECONDS);
        }
        throw new AssertionError("the service did not become ready: " + Files.readString(log));
    }

    private static String newKeyset() throws Exception {
        AeadConfig.register();
        return TinkJsonProtoKeysetFormat.serializeKeyset(
                KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM), InsecureSecretKeyAccess.get());
    }
}
