package dev.voiceplane.kit.crypto;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * Secrets that live inside a stored JSON document (a customer's webhook secret in an assistant, a tool's
 * {@code server.secret}): sealed with the {@link SecretBox} in place before the document is stored, opened when it
 * is read. A path names a field with dots; {@code *} stands for every element of an array
 * ({@code "model.tools.*.server.secret"}). A sealed value is the text {@value #PREFIX} followed by the base64 of
 * the ciphertext, bound to the row's context; a value without the prefix was stored before sealing existed and is
 * read as it is (and sealed at its next write). {@code null} from a change removes the field. Such secrets are
 * write-only on the public API: answers {@link #remove} them; only internal routes answer them opened.
 */
public final class SealedFields {

    public static final String PREFIX = "sealed:v1:";
    private static final Logger LOG = Logger.getLogger(SealedFields.class);

    private final List<String> paths;

    public SealedFields(List<String> paths) {
        this.paths = List.copyOf(paths);
    }

    public List<String> paths() {
        return paths;
    }

    /** Seals, in place, every string at one of the paths. */
    public ObjectNode seal(ObjectNode document, SecretBox box, String context) {
        return transform(document, value -> value.startsWith(PREFIX) && opens(box, value, context)
                ? value
                : PREFIX + Base64.getEncoder().encodeToString(
                        box.seal(value.getBytes(StandardCharsets.UTF_8), context)));
    }

    /**
     * Opens, in place, every sealed string at one of the paths. A sealed value that does not open here (copied from
     * another row, or sealed with a key no longer in the keyset) is left out, so the rest of the document still reads.
     */
    public ObjectNode open(ObjectNode document, SecretBox box, String context) {
        return transform(document, value -> open(value, box, context));
    }

    /**
     * Removes, in place, every string at one of the paths, sealed or not: what a public answer shows of a document
     * whose secrets are write-only. Nothing is opened, so no key is needed.
     */
    public ObjectNode remove(ObjectNode document) {
        return transform(document, value -> null);
    }

    /**
     * What one stored value at one of the paths reads as: opened when it is sealed, as it is when it was stored before
     * sealing existed, null (left out) when it is sealed but does not open here.
     */
    public String open(String value, SecretBox box, String context) {
        if (!value.startsWith(PREFIX)) {
            return value;
        }
        try {
            return openValue(box, value, context);
        } catch (RuntimeException e) {
            LOG.warnf("a sealed field of %s does not open with this keyset; it is left out", context);
            return null;
        }
    }

    private static boolean opens(SecretBox box, String value, String context) {
        try {
            openValue(box, value, context);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String openValue(SecretBox box, String value, String context) {
        byte[] ciphertext = Base64.getDecoder().decode(value.substring(PREFIX.length()));
        return new String(box.open(ciphertext, context), StandardCharsets.UTF_8);
    }

    private ObjectNode transform(ObjectNode document, UnaryOperator<String> change) {
        for (String path : paths) {
            visit(document, path.split("\\."), 0, change);
        }
        return document;
    }

    private static void visit(JsonNode node, String[] steps, int at, UnaryOperator<String> change) {
        if (node == null || at >= steps.length) {
            return;
        }
        String step = steps[at];
        boolean last = at == steps.length - 1;
        if (step.equals("*")) {
            if (node instanceof ArrayNode array) {
                for (int i = 0; i < array.size(); i++) {
                    if (last) {
                        String changed = array.get(i).isTextual() ? change.apply(array.get(i).textValue()) : null;
                        if (changed != null) {
                            array.set(i, TextNode.valueOf(changed));
                        }
                    } else {
                        visit(array.get(i), steps, at + 1, change);
                    }
                }
            }
            return;
        }
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        JsonNode child = object.get(step);
        if (last) {
            if (child != null && child.isTextual()) {
                String changed = change.apply(child.textValue());
                if (changed == null) {
                    object.remove(step);
                } else {
                    object.put(step, changed);
                }
            }
        } else {
            visit(child, steps, at + 1, change);
        }
    }
}
