package dev.voiceplane.file.service;

import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The service's settings (application.properties lists them with their environment variables). */
@ApplicationScoped
public class FileSettings {

    private final long maxSize;
    private final String publicUrl;
    private final Duration orphanGrace;

    FileSettings(@ConfigProperty(name = "voice.file.max-size") MemorySize maxSize,
            @ConfigProperty(name = "voice.file.public-url", defaultValue = "") java.util.Optional<String> publicUrl,
            @ConfigProperty(name = "voice.file.orphan-grace") Duration orphanGrace) {
        this.maxSize = maxSize.asLongValue();
        String base = publicUrl.orElse("").strip();
        this.publicUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.orphanGrace = orphanGrace;
    }

    /** Largest file accepted, in bytes. */
    public long maxSize() {
        return maxSize;
    }

    public String publicUrl() {
        return publicUrl;
    }

    /** How long bytes without a row may exist before the sweep removes them (longer than any upload takes). */
    public Duration orphanGrace() {
        return orphanGrace;
    }
}
