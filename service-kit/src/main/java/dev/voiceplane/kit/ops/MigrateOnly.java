package dev.voiceplane.kit.ops;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The migration mode of every service ({@code VOICE_DB_MIGRATE_ONLY=true}): Flyway migrates while the
 * application starts (as the schema-owning migration role), then the process exits 0 instead of serving.
 * Kubernetes runs it as an init container before the service, which itself runs with
 * {@code VOICE_DB_MIGRATE_AT_START=false} as a role that cannot change the schema (docs/kubernetes.md).
 */
@Singleton
public class MigrateOnly {

    private static final Logger LOG = Logger.getLogger(MigrateOnly.class);

    void exitAfterMigrating(@Observes StartupEvent started,
            @ConfigProperty(name = "voice.db.migrate-only", defaultValue = "false") boolean migrateOnly,
            @ConfigProperty(name = "quarkus.flyway.migrate-at-start", defaultValue = "false") boolean migrated) {
        if (!migrateOnly) {
            return;
        }
        if (!migrated) {
            LOG.error("VOICE_DB_MIGRATE_ONLY=true needs VOICE_DB_MIGRATE_AT_START=true: nothing was migrated");
            Quarkus.asyncExit(1);
            return;
        }
        LOG.info("database migrated; exiting (VOICE_DB_MIGRATE_ONLY=true)");
        Quarkus.asyncExit(0);
    }
}
