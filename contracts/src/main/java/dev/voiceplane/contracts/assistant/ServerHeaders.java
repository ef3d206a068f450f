package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** A server's custom {@code headers}: an object of header names to string values (see {@link ServerHeadersValidator}). */
@Documented
@Constraint(validatedBy = ServerHeadersValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface ServerHeaders {

    String message() default "must be an object of header names to string values";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
