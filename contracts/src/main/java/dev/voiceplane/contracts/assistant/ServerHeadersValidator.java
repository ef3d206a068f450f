package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Custom headers sent to a customer's server: names are HTTP tokens, values strings without control characters
 * (a CR or LF would split the request), and the headers the sender sets itself (framing, the host, the signature,
 * {@code x-vapi-secret}) cannot be replaced, so a header can neither break the request nor forge its signature.
 */
public class ServerHeadersValidator implements ConstraintValidator<ServerHeaders, ObjectNode> {

    /** At most this many headers, each value at most {@link #MAX_VALUE} characters. */
    static final int MAX_HEADERS = 50;
    static final int MAX_VALUE = 4096;
    private static final Pattern NAME = Pattern.compile("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$");
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x08\\x0a-\\x1f\\x7f]");
    /** Set by the sender; lower case. */
    public static final Set<String> RESERVED = Set.of("host", "content-length", "content-type", "transfer-encoding",
            "connection", "keep-alive", "upgrade", "te", "trailer", "proxy-authorization", "proxy-connection",
            "expect", "webhook-id", "webhook-timestamp", "webhook-signature", "x-vapi-secret");

    @Override
    public boolean isValid(ObjectNode headers, ConstraintValidatorContext context) {
        if (headers == null) {
            return true;
        }
        context.disableDefaultConstraintViolation();
        boolean valid = true;
        if (headers.size() > MAX_HEADERS) {
            Messages.replace(context, "must have at most " + MAX_HEADERS + " headers");
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = headers.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> header = fields.next();
            String name = header.getKey();
            JsonNode value = header.getValue();
            String problem = null;
            if (!NAME.matcher(name).matches()) {
                problem = "must have header names made of token characters (" + shown(name) + ")";
            } else if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                problem = "cannot set " + name + ": the request sets it itself";
            } else if (!value.isTextual()) {
                problem = name + " must be a string";
            } else if (value.asText().length() > MAX_VALUE || CONTROL.matcher(value.asText()).find()) {
                problem = name + " must be at most " + MAX_VALUE + " characters without control characters";
            }
            if (problem != null) {
                context.buildConstraintViolationWithTemplate(Messages.literal(problem)).addConstraintViolation();
                valid = false;
            }
        }
        return valid;
    }

    private static String shown(String name) {
        return name.length() > 40 ? name.substring(0, 40) + "…" : name;
    }
}
