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

/** An absolute {@code http} or {@code https} address with a host: where the service will send requests. */
@Documented
@Constraint(validatedBy = HttpUrlValidator.class)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface HttpUrl {

    String message() default "must be a URL address";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
