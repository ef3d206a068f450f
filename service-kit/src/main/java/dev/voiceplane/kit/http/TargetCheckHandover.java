package dev.voiceplane.kit.http;

import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Hands the check of request targets from Quarkus to the kit ({@link RequestTargets}), so that a malformed target
 * ({@code /credential/%zz}, {@code ?limit=%}, a literal {@code {x}} or control character) is answered in the error
 * shape by every service, directly as behind a gateway or an Ingress, not with Quarkus's empty 400.
 *
 * <p>Quarkus checks each target with {@code java.net.URI} before any route or filter runs, and the only switch is
 * the system property {@code vertx.disableURIValidation}, read once when its HTTP recorder class initialises. The
 * configuration is built before that, and this class is loaded with it (a {@link ConfigSource} listed in
 * {@code META-INF/services}, contributing no property), so it is the one place that can set the switch for every
 * way a service is started: the image, the local stack, {@code java -jar}, tests. {@link RequestTargets} is stricter
 * than the check it replaces (only RFC 3986 characters, well-formed UTF-8 escapes), so nothing gets through that
 * was refused before; {@code RequestTargetTest} in the kit keeps it so. An explicit
 * {@code -Dvertx.disableURIValidation=false} is left as it is.
 */
public final class TargetCheckHandover implements ConfigSource {

    static final String QUARKUS_SWITCH = "vertx.disableURIValidation";

    static {
        if (System.getProperty(QUARKUS_SWITCH) == null) {
            System.setProperty(QUARKUS_SWITCH, "true");
        }
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.of();
    }

    @Override
    public String getValue(String propertyName) {
        return null;
    }

    @Override
    public String getName() {
        return "voiceplane request target check (kit RequestTargets)";
    }

    @Override
    public int getOrdinal() {
        return 0;
    }
}
