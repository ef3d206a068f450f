package dev.voiceplane.kit.ops;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns tracing on exactly when {@code VOICE_OTEL_ENDPOINT} names a collector: without one, the OpenTelemetry SDK
 * stays disabled, so no exporter retries against a collector that is not there. An explicit
 * {@code quarkus.otel.sdk.disabled} (application.properties, environment, system property) still wins.
 */
public final class OtelSwitch implements ConfigSource {

    static final String SDK_DISABLED = "quarkus.otel.sdk.disabled";
    static final String ENDPOINT_VARIABLE = "VOICE_OTEL_ENDPOINT";

    private final Map<String, String> environment;

    public OtelSwitch() {
        this(System.getenv());
    }

    OtelSwitch(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(SDK_DISABLED);
    }

    @Override
    public String getValue(String propertyName) {
        if (!SDK_DISABLED.equals(propertyName)) {
            return null;
        }
        String endpoint = environment.get(ENDPOINT_VARIABLE);
        return Boolean.toString(endpoint == null || endpoint.isBlank());
    }

    @Override
    public String getName() {
        return "voiceplane OTel switch (" + ENDPOINT_VARIABLE + ")";
    }

    /** Above the kit's and extensions' defaults (100), below application.properties (250) and the environment. */
    @Override
    public int getOrdinal() {
        return 150;
    }
}
