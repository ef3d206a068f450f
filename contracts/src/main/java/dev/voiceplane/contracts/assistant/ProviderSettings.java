package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The settings of a voice or a transcriber that depend on its provider (docs/assistants-and-squads.md, "Provider
 * settings"): each provider takes the settings the hosted platform's published SDK gives it, with the SDK's values
 * ({@link dev.voiceplane.contracts.catalog.SdkValues}); a setting of another provider is refused, naming the
 * providers that take it.
 */
@Documented
@Constraint(validatedBy = {VoiceSettingsValidator.class, TranscriberSettingsValidator.class})
@Target(TYPE)
@Retention(RUNTIME)
public @interface ProviderSettings {

    String message() default "settings do not fit the provider";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
