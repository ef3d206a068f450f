package dev.voiceplane.kit.validation;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A string that must be one of the listed values:
 * {@code "backgroundSound must be one of the following values: off, office"}.
 */
@Documented
@Constraint(validatedBy = OneOfValidator.class)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface OneOf {

    /** The accepted values, in the order the message lists them. */
    String[] value();

    String message() default "must be one of the listed values";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
