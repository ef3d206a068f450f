package dev.voiceplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The routing table of the Ingress manifest (path prefix to backend Service), matched the way Kubernetes
 * matches {@code pathType: Prefix}: by whole path segments, the longest prefix winning.
 */
final class IngressRoutes {

    /** Kubernetes Service names are DNS labels; they also become database role and schema names here. */
    private static final Pattern SERVICE_NAME = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    /** One rule: requests under {@code prefix} go to {@code service}. */
    record Route(String prefix, String service) {

        Route {
            if (prefix.length() > 1 && prefix.endsWith("/")) {
                // "/credential/" and "/credential" are the same Prefix rule in Kubernetes.
                prefix = prefix.substring(0, prefix.length() - 1);
            }
        }

        boolean matches(String path) {
            return prefix.equals("/") || path.equals(prefix) || path.startsWith(prefix + "/");
        }
    }

    private final List<Route> routes;

    IngressRoutes(List<Route> routes) {
        this.routes = routes.stream()
                .sorted(Comparator.comparingInt((Route route) -> route.prefix().length()).reversed())
                .toList();
    }

    static IngressRoutes read(Path manifest) {
        JsonNode ingress;
        try {
            ingress = new YAMLMapper().readTree(manifest.toFile());
        } catch (IOException e) {
            throw new StackFailure("cannot read the Ingress manifest " + manifest + ": " + e.getMessage(), e);
        }
        if (ingress == null || !"Ingress".equals(ingress.path("kind").asText())) {
            throw new StackFailure(manifest + " does not hold an Ingress");
        }
        List<Route> routes = new ArrayList<>();
        for (JsonNode rule : ingress.path("spec").path("rules")) {
            for (JsonNode path : rule.path("http").path("paths")) {
                routes.add(route(manifest, path));
            }
        }
        if (routes.isEmpty()) {
            throw new StackFailure(manifest + " routes no path");
        }
        return new IngressRoutes(routes);
    }

    private static Route route(Path manifest, JsonNode path) {
        String prefix = path.path("path").asText();
        String pathType = path.path("pathType").asText();
        String service = path.path("backend").path("service").path("name").asText();
        if (!pathType.equals("Prefix")) {
            throw new StackFailure(manifest + ": the local gateway only knows pathType Prefix, not '" + pathType
                    + "' (path " + prefix + ")");
        }
        if (!prefix.startsWith("/")) {
            throw new StackFailure(manifest + ": path '" + prefix + "' does not start with /");
        }
        if (!SERVICE_NAME.matcher(service).matches()) {
            throw new StackFailure(manifest + ": path " + prefix + " has no backend service name (found '" + service
                    + "')");
        }
        return new Route(prefix, service);
    }

    /** The service that serves {@code path}, which must already be normalised; empty when no rule matches. */
    Optional<String> serviceFor(String path) {
        return routes.stream().filter(route -> route.matches(path)).map(Route::service).findFirst();
    }

    /** These rules and {@code route}, unless a rule has its prefix already. */
    IngressRoutes with(Route route) {
        if (routes.stream().anyMatch(rule -> rule.prefix().equals(route.prefix()))) {
            return this;
        }
        List<Route> more = new ArrayList<>(routes);
        more.add(route);
        return new IngressRoutes(more);
    }

    /** Every rule, longest prefix first. */
    List<Route> routes() {
        return routes;
    }

    /** Every backend service, each once, by name. */
    List<String> services() {
        return routes.stream().map(Route::service).distinct().sorted().toList();
    }
}
