package dev.voiceplane.kit.testing;

import dev.voiceplane.kit.crypto.SecretBox;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * What every service's {@code @QuarkusTest} runs against: a real PostgreSQL (the embedded one from Maven
 * Central, started once per test JVM, or the one named by {@code VOICE_TEST_JDBC_URL}), the API keys of
 * {@link TestKeys}, the internal service token and a fresh encryption keyset.
 */
public class TestEnvironment implements QuarkusTestResourceLifecycleManager {

    private static EmbeddedPostgres embedded;

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(database());
        config.put("voice.api-keys", TestKeys.CONFIG);
        config.put("voice.internal-token", TestKeys.INTERNAL_TOKEN);
        config.put("voice.media-token-key", TestKeys.MEDIA_TOKEN_KEY);
        config.put("voice.encryption.keyset", SecretBox.generateKeysetJson());
        return config;
    }

    @Override
    public void stop() {
        // The database outlives each Quarkus app of the run; the JVM's shutdown hook closes it.
    }

    /** JDBC settings of the shared test database. */
    public static synchronized Map<String, String> database() {
        String external = System.getenv("VOICE_TEST_JDBC_URL");
        if (external != null && !external.isBlank()) {
            return Map.of(
                    "quarkus.datasource.jdbc.url", external,
                    "quarkus.datasource.username", System.getenv().getOrDefault("VOICE_TEST_DB_USER", "postgres"),
                    "quarkus.datasource.password", System.getenv().getOrDefault("VOICE_TEST_DB_PASSWORD", ""));
        }
        if (embedded == null) {
            try {
                // The library's fast settings (fsync off, synchronous_commit off) on purpose: a test database is
                // thrown away, so durability buys nothing and costs every commit a disk flush. The local stack's
                // database, which keeps users' data, turns both on (deploy/local, LocalDatabase).
                embedded = EmbeddedPostgres.builder()
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
            }
            EmbeddedPostgres started = embedded;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // the process is ending; the temporary data directory goes with it
                }
            }));
        }
        return Map.of(
                "quarkus.datasource.jdbc.url", embedded.getJdbcUrl("postgres", "postgres"),
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }
}
