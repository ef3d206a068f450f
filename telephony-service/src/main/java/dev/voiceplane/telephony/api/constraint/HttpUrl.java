package dev.voiceplane.telephony.api.constraint;

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
 * An absolute {@code http} or {@code https} address with a host. TEMPORARY: the lead moves assistant-service's
 * {@code HttpUrl} into the service kit; this module switches to it when it lands (KIT.md) and this copy goes.
 */
@Documented
@Constraint(validatedBy = HttpUrlValidator.class)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, RECORD_COMPONENT})
@Retention(RUNTIME)
public @interface HttpUrl {

    String message() default "must be a URL address";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
