package dev.voiceplane.kit.error;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import java.util.Collection;
import java.util.List;

/** Turns bean-validation violations into the wire messages: {@code "model.temperature must not be greater than 2"}. */
public final class ViolationMessages {

    private ViolationMessages() {
    }

    public static List<String> of(Collection<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .map(ViolationMessages::message)
                .distinct()
                .sorted()
                .toList();
    }

    /** True when a response (return value) failed validation: a server bug, not a client mistake. */
    public static boolean concernsResponse(Collection<? extends ConstraintViolation<?>> violations) {
        for (ConstraintViolation<?> violation : violations) {
            for (Path.Node node : violation.getPropertyPath()) {
                if (node.getKind() == ElementKind.RETURN_VALUE) {
                    return true;
                }
            }
        }
        return false;
    }

    static String message(ConstraintViolation<?> violation) {
        String path = path(violation.getPropertyPath());
        return path.isEmpty() ? violation.getMessage() : path + " " + violation.getMessage();
    }

    /** The dotted path of the offending value inside the request body; list indexes become segments. */
    static String path(Path propertyPath) {
        StringBuilder path = new StringBuilder();
        for (Path.Node node : propertyPath) {
            ElementKind kind = node.getKind();
            if (kind == ElementKind.METHOD || kind == ElementKind.PARAMETER || kind == ElementKind.RETURN_VALUE
                    || kind == ElementKind.CONSTRUCTOR || kind == ElementKind.CROSS_PARAMETER) {
                continue;
            }
            if (node.isInIterable()) {
                Object position = node.getIndex() != null ? node.getIndex() : node.getKey();
                if (position != null) {
                    append(path, position.toString());
                }
            }
            if (kind != ElementKind.CONTAINER_ELEMENT && kind != ElementKind.BEAN && node.getName() != null) {
                append(path, node.getName());
            }
        }
        return path.toString();
    }

    private static void append(StringBuilder path, String segment) {
        if (!path.isEmpty()) {
            path.append('.');
        }
        path.append(segment);
    }
}
