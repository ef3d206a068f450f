package dev.voiceplane.kit.validation;

import jakarta.validation.ConstraintValidatorContext;
import java.util.Set;

/** Builds the violations of this package's validators with literal messages. */
public final class Messages {

    private Messages() {
    }

    /** Replaces the default violation with {@code message}, taken literally (no message interpolation). */
    public static void replace(ConstraintValidatorContext context, String message) {
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
    }

    /** Adds a violation on {@code property} of the validated object. */
    public static void onProperty(ConstraintValidatorContext context, String property, String message) {
        context.buildConstraintViolationWithTemplate(literal(message))
                .addPropertyNode(property)
                .addConstraintViolation();
    }

    /** The message for a value outside {@code allowed}, without the field (the violation's path names it). */
    public static String mustBeOneOf(Set<String> allowed) {
        return "must be one of the following values: " + String.join(", ", allowed);
    }

    /** Escapes what a message template would otherwise interpret. */
    public static String literal(String message) {
        return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
    }
}
