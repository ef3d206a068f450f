package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** A squad member names its assistant exactly once: by {@code assistantId} or as an inline {@code assistant}. */
@Documented
@Constraint(validatedBy = OneAssistantValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface OneAssistant {

    String message() default "must have assistantId or assistant";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
