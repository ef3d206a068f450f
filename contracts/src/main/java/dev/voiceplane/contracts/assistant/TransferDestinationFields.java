package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A transfer destination carries the fields of its type: an {@code assistant} its {@code assistantName} and no
 * {@code number}, a {@code number} its {@code number} and no {@code assistantName}.
 */
@Documented
@Constraint(validatedBy = TransferDestinationFieldsValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface TransferDestinationFields {

    String message() default "does not carry the fields of its type";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
