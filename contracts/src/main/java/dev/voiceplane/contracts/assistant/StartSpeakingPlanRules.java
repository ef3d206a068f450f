package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** {@code smartEndpointingEnabled} is a boolean or {@code "livekit"}, as the SDK's type allows. */
@Documented
@Constraint(validatedBy = StartSpeakingPlanRulesValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface StartSpeakingPlanRules {

    String message() default "is not a valid start speaking plan";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
