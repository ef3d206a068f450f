package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * An assistant whose model is a realtime (speech-to-speech) model speaks with that model's own voices: its
 * {@code voice.voiceId}, when given, is one of them (docs/assistants-and-squads.md, "Validation rules").
 */
@Documented
@Constraint(validatedBy = RealtimeVoiceValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface RealtimeVoice {

    String message() default "the voice does not fit the realtime model";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
