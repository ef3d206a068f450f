package dev.voiceplane.contracts.catalog;

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
 * A provider value of one catalogue of {@link Providers}: the real identifier or the
 * interface document's neutral word for it ({@code llmA} for {@code openai}). The value is stored as sent.
 */
@Documented
@Constraint(validatedBy = ProviderOfValidator.class)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE, ANNOTATION_TYPE})
@Retention(RUNTIME)
public @interface ProviderOf {

    ProviderCatalogue value();

    String message() default "must be a known provider";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
