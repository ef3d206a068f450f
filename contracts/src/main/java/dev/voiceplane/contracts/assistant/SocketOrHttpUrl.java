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

/**
 * An absolute {@code ws}, {@code wss}, {@code http} or {@code https} URL with a host, at most 2048 characters: a
 * custom transcriber's server, which the hosted platform reaches over a WebSocket (written {@code wss://...}, or as
 * the https address of the same server).
 */
@Documented
@Constraint(validatedBy = SocketOrHttpUrlValidator.class)
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface SocketOrHttpUrl {

    String message() default "must be a ws, wss, http or https URL address";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
