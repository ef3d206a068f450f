package dev.voiceplane.runtime.media;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Where call-service reaches this replica ({@code VOICE_RUNTIME_INTERNAL_URL}); by default the address the HTTP
 * server is bound to (the local stack binds localhost) or, bound to all, the host's own address, and the HTTP port, which in Kubernetes is the pod's IP (its hostname resolves to it), reachable from call-service
 * inside the cluster and never routed by the Ingress ({@code /internal/} needs the service token anyway).
 */
@ApplicationScoped
public class OwnAddress {

    private final Optional<String> configured;

    public OwnAddress(@ConfigProperty(name = "voice.runtime.internal-url") Optional<String> configured) {
        this.configured = configured;
    }

    /** Read when first needed: a random test port is known only once the server listens. */
    public String url() {
        if (configured.isPresent()) {
            return configured.get().replaceAll("/+$", "");
        }
        String portProperty = LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port" : "quarkus.http.port";
        int port = ConfigProvider.getConfig().getOptionalValue(portProperty, Integer.class).orElse(8080);
        // Bound to one address (the local stack: localhost), that one; bound to all, the host's own.
        String host = ConfigProvider.getConfig().getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0");
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            try {
                host = InetAddress.getLocalHost().getHostAddress();
            } catch (UnknownHostException e) {
                host = "127.0.0.1";
            }
        }
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
