package dev.voiceplane.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One service as the local stack runs it: its Maven module, its port after the gateway's, its database role and
 * schema.
 */
record LocalService(String name, int portOffset, Path module) {

    /**
     * Port order after the gateway's port (assistant-service on gateway + 1, ...), fixed so that a service keeps its
     * port whichever services are built. Services missing from this list come after it.
     */
    static final List<String> PORT_ORDER =
            List.of("assistant-service", "call-service", "telephony-service", "file-service", "credential-service");

    private static final String SUFFIX = "-service";

    /** The services named by the Ingress, ordered by port; each one's module is {@code home/<name>}. */
    static List<LocalService> plan(List<String> names, Path home) {
        List<LocalService> services = new ArrayList<>();
        int unlisted = 0;
        for (String name : names) {
            int index = PORT_ORDER.indexOf(name);
            int offset = 1 + (index >= 0 ? index : PORT_ORDER.size() + unlisted++);
            services.add(new LocalService(name, offset, home.resolve(name)));
        }
        services.sort(Comparator.comparingInt(LocalService::portOffset));
        return List.copyOf(services);
    }

    int port(int gatewayPort) {
        return gatewayPort + portOffset;
    }

    /** What {@code mvn package} builds. */
    Path jar() {
        return module.resolve("target").resolve("quarkus-app").resolve("quarkus-run.jar");
    }

    boolean isBuilt() {
        return Files.isRegularFile(jar());
    }

    /** {@code credential} for credential-service: the log prefix and the schema. */
    String shortName() {
        return name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
    }

    String schema() {
        return shortName().replace('-', '_');
    }

    String role() {
        return name.replace('-', '_');
    }

    /** How the other services find this one: {@code CREDENTIAL_SERVICE_URL}. */
    String urlVariable() {
        return name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL";
    }
}
