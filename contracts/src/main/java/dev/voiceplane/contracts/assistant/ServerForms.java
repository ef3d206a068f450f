package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The two spellings of a resource's server, {@code serverUrl}/{@code serverUrlSecret} (the era's) and the
 * {@code server} object (today's: {@code url}, {@code secret}, {@code headers}, {@code timeoutSeconds}), hold one
 * value (docs/api-reference.md "The server object"). Each spelling a client wrote is stored and answered as
 * written (nothing it did not send is invented); when both are written they must agree, and a PATCH of one
 * changes the other too when that is stored, so the two never disagree. Readers take {@link #url},
 * {@link #secret}, and the headers and timeout of {@code server}.
 */
public final class ServerForms {

    private ServerForms() {
    }

    /** A body that gives both spellings with different values: one message per difference, paths under {@code prefix}. */
    public static List<String> conflicts(String prefix, JsonNode body) {
        List<String> problems = new ArrayList<>();
        JsonNode server = body.path("server");
        if (!server.isObject()) {
            return problems;
        }
        if (differ(body.get("serverUrl"), server.get("url"))) {
            problems.add(prefix + "serverUrl and " + prefix + "server.url must be the same address when both are given");
        }
        if (differ(body.get("serverUrlSecret"), server.get("secret"))) {
            problems.add(prefix + "serverUrlSecret and " + prefix + "server.secret must be the same when both are given");
        }
        return problems;
    }

    /**
     * Completes a PATCH so that the spelling it does not give follows the one it gives, where the resource stores
     * that other spelling ({@code current}: the stored fields, secrets opened). {@code server: null} clears
     * {@code serverUrl} and {@code serverUrlSecret} too; {@code serverUrl: null} clears {@code server}.
     */
    public static void align(ObjectNode patch, JsonNode current) {
        boolean server = patch.has("server");
        boolean url = patch.has("serverUrl");
        boolean secret = patch.has("serverUrlSecret");
        if (server) {
            JsonNode given = patch.get("server");
            if (given.isNull()) {
                if (!url && current.has("serverUrl")) {
                    patch.set("serverUrl", NullNode.getInstance());
                }
                if (!secret && current.has("serverUrlSecret")) {
                    patch.set("serverUrlSecret", NullNode.getInstance());
                }
            } else if (given.isObject()) {
                if (!url && current.has("serverUrl") && given.has("url")) {
                    patch.set("serverUrl", given.get("url"));
                }
                if (!secret && current.has("serverUrlSecret") && given.has("secret")) {
                    patch.set("serverUrlSecret", given.get("secret"));
                }
            }
            return;
        }
        if (!(url || secret) || !(current.get("server") instanceof ObjectNode stored)) {
            return;
        }
        if (url && patch.get("serverUrl").isNull()) {
            patch.set("server", NullNode.getInstance());
            return;
        }
        ObjectNode changed = stored.deepCopy();
        if (url) {
            changed.set("url", patch.get("serverUrl"));
        }
        if (secret) {
            if (patch.get("serverUrlSecret").isNull()) {
                changed.remove("secret");
            } else {
                changed.set("secret", patch.get("serverUrlSecret"));
            }
        }
        patch.set("server", changed);
    }

    /** The address of a stored or frozen resource's server: {@code serverUrl}, else {@code server.url}; null when none. */
    public static String url(JsonNode resource) {
        return text(resource.get("serverUrl"), resource.path("server").get("url"));
    }

    /** Its secret: {@code serverUrlSecret}, else {@code server.secret}; null when none. */
    public static String secret(JsonNode resource) {
        return text(resource.get("serverUrlSecret"), resource.path("server").get("secret"));
    }

    private static String text(JsonNode first, JsonNode second) {
        if (first != null && first.isTextual() && !first.asText().isEmpty()) {
            return first.asText();
        }
        return second != null && second.isTextual() && !second.asText().isEmpty() ? second.asText() : null;
    }

    private static boolean differ(JsonNode one, JsonNode other) {
        return one != null && !one.isNull() && other != null && !other.isNull() && !one.equals(other);
    }
}
