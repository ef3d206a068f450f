package dev.voiceplane.kit.validation;

import static java.lang.annotation.ElementType.ANNOTATION_TYPE;
import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A phone number in E.164 syntax: {@code +} and 8 to 15 digits, nothing else ({@link E164Validator#REGEX}). No
 * numbering-plan check (test and fictional numbers work), and a leading zero after the {@code +} is accepted: the
 * one rule of the platform (issue 10), for phone numbers, customers and dials alike. {@code null} is valid (pair with
 * {@code @NotNull} where required); code that checks a number by hand calls {@link E164Validator#valid(String)}.
 */
@Documented
@Constraint(validatedBy = E164Validator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface E164 {

    /** The one message, also for hand-written checks ({@code <field> + " " + MESSAGE}). */
    String MESSAGE = "must be a valid phone number in the E.164 format";

    String message() default MESSAGE;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
