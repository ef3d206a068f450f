package dev.voiceplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one OpenAPI document of the public API: the documents the services store at build time
 * ({@code <service>/target/openapi/openapi.yaml}, smallrye-openapi's {@code store-schema-directory}) merged into one,
 * with only the paths the Ingress routes (no {@code /internal}, no {@code /q}) and only the schemas those paths
 * reach. The build writes it to {@code deploy/local/target/openapi.yaml}; {@code docs/openapi.yaml} is the published
 * copy, which {@code OpenApiDocumentTest} keeps equal to it.
 */
public final class OpenApiMerge {

    static final Path PUBLISHED = Path.of("docs", "openapi.yaml");
    private static final Pattern REF = Pattern.compile("#/components/schemas/([A-Za-z0-9._-]+)");
    private static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private OpenApiMerge() {
    }

    /** {@code args[0]}: repository root; {@code args[1]}: where to write the merged document. */
    public static void main(String[] args) throws IOException {
        Path home = Path.of(args[0]);
        Path target = Path.of(args[1]);
        Files.createDirectories(target.getParent());
        Files.writeString(target, merge(home));
        System.out.println("[openapi] merged the services' documents into " + target
                + " (publish it with: cp " + home.relativize(target.toAbsolutePath()) + " " + PUBLISHED + ")");
    }

    /** The merged document, as YAML, from the services the Ingress routes to. */
    static String merge(Path home) {
        IngressRoutes routes = IngressRoutes.read(home.resolve(LocalStack.INGRESS));
        Map<String, JsonNode> paths = new TreeMap<>();
        Map<String, JsonNode> schemas = new TreeMap<>();
        Map<String, JsonNode> securitySchemes = new TreeMap<>();
        for (String service : new TreeSet<>(routes.services())) {
            Path document = home.resolve(service).resolve("target").resolve("openapi").resolve("openapi.yaml");
            if (!Files.isRegularFile(document)) {
                throw new StackFailure(document + " is missing: build the services first (./mvnw package)");
            }
            JsonNode openApi = read(document);
            Map<String, JsonNode> servicePaths = new TreeMap<>();
            openApi.path("paths").properties().forEach(path -> {
                // Only what the Ingress sends to this very service is public (never /internal or /q).
                if (routes.serviceFor(path.getKey()).filter(service::equals).isPresent()) {
                    servicePaths.put(path.getKey(), path.getValue());
                    JsonNode earlier = paths.put(path.getKey(), path.getValue());
                    if (earlier != null) {
                        throw new StackFailure(path.getKey() + " is served by two services");
                    }
                }
            });
            // Only this service's public schemas join: an internal contract type may share a name with another
            // service's public one without clashing (its refs never leave this service's own document).
            Map<String, JsonNode> serviceSchemas = new TreeMap<>();
            addAll(openApi.path("components").path("schemas"), serviceSchemas, service, "schema");
            ObjectNode publicSchemas = JsonNodeFactory.instance.objectNode();
            reachable(servicePaths.values(), serviceSchemas)
                    .forEach(name -> publicSchemas.set(name, serviceSchemas.get(name)));
            addAll(publicSchemas, schemas, service, "schema");
            addAll(openApi.path("components").path("securitySchemes"), securitySchemes, service, "security scheme");
        }

        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        merged.put("openapi", "3.1.0");
        ObjectNode info = merged.putObject("info");
        info.put("title", "voiceplane API");
        info.put("description", "Every public route of voiceplane, generated from the services' own documents by "
                + "deploy/local (OpenApiMerge). Conventions (authentication, errors, lists): docs/api-reference.md.");
        info.put("version", "0.1.0");
        merged.putArray("servers").addObject().put("url", "http://localhost:8080")
                .put("description", "the local stack (deploy/local/up)");
        ObjectNode pathsNode = merged.putObject("paths");
        paths.forEach(pathsNode::set);
        ObjectNode components = merged.putObject("components");
        ObjectNode schemasNode = components.putObject("schemas");
        reachable(paths.values(), schemas).forEach(name -> schemasNode.set(name, schemas.get(name)));
        ObjectNode security = components.putObject("securitySchemes");
        securitySchemes.forEach(security::set);
        try {
            return YAML.writeValueAsString(merged);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adds every entry; two services may define a name only identically (the kit's shared types). */
    private static void addAll(JsonNode entries, Map<String, JsonNode> into, String service, String kind) {
        entries.properties().forEach(entry -> {
            JsonNode earlier = into.putIfAbsent(entry.getKey(), entry.getValue());
            if (earlier != null && !earlier.equals(entry.getValue())) {
                throw new StackFailure(kind + " " + entry.getKey() + " of " + service
                        + " differs from another service's: rename one of them");
            }
        });
    }

    /** The schema names the public paths refer to, directly or through other schemas, sorted. */
    private static Set<String> reachable(Iterable<JsonNode> roots, Map<String, JsonNode> schemas) {
        Set<String> seen = new TreeSet<>();
        Deque<JsonNode> pending = new ArrayDeque<>();
        roots.forEach(pending::add);
        while (!pending.isEmpty()) {
            Matcher refs = REF.matcher(pending.pop().toString());
            while (refs.find()) {
                String name = refs.group(1);
                if (schemas.containsKey(name) && seen.add(name)) {
                    pending.add(schemas.get(name));
                }
            }
        }
        return seen;
    }

    /** One documented operation, and a request path that names it (path parameters filled in). */
    record Operation(String method, String path, String example) {
    }

    /** A path parameter with an alternation pattern ({@code twilio|vonage}) takes its first value, any other an id. */
    private static final Pattern ALTERNATIVES = Pattern.compile("[A-Za-z0-9_-]+(\\|[A-Za-z0-9_-]+)*");
    private static final String SOME_ID = "0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d";

    /** Every operation of a merged document, by path and method. */
    static List<Operation> operations(String document) {
        JsonNode root;
        try {
            root = YAML.readTree(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Operation> operations = new java.util.ArrayList<>();
        for (Map.Entry<String, JsonNode> path : root.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                String method = operation.getKey();
                if (!List.of("get", "put", "post", "delete", "patch").contains(method)) {
                    continue;
                }
                String example = path.getKey();
                for (JsonNode parameter : operation.getValue().path("parameters")) {
                    if (parameter.path("in").asText().equals("path")) {
                        String pattern = parameter.path("schema").path("pattern").asText("");
                        String value = ALTERNATIVES.matcher(pattern).matches() ? pattern.split("\\|")[0] : SOME_ID;
                        example = example.replace("{" + parameter.path("name").asText() + "}", value);
                    }
                }
                operations.add(new Operation(method.toUpperCase(java.util.Locale.ROOT), path.getKey(),
                        example.replaceAll("\\{[^}]+}", SOME_ID)));
            }
        }
        return operations;
    }

    private static JsonNode read(Path document) {
        try {
            return YAML.readTree(document.toFile());
        } catch (IOException e) {
            throw new StackFailure("cannot read " + document + ": " + e.getMessage(), e);
        }
    }
}
