package dev.voiceplane.assistant.api.constraint;

import jakarta.validation.ConstraintValidatorContext;

/** Builds the violations of this package's validators with literal messages. */
final class Messages {

    private Messages() {
    }

    /** Replaces the default violation with {@code message}, taken literally (no message interpolation). */
    static void replace(ConstraintValidatorContext context, String message) {
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
    }

    /** Adds a violation on {@code property} of the validated object. */
    static void onProperty(ConstraintValidatorContext context, String property, String message) {
        context.buildConstraintViolationWithTemplate(literal(message))
                .addPropertyNode(property)
                .addConstraintViolation();
    }

    /** Escapes what a message template would otherwise interpret. */
    static String literal(String message) {
        return message.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("$", "\\$");
    }
}
