package dev.voiceplane.contracts.assistant;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The rules of a model that depend on its provider (docs/assistants-and-squads.md, "Validation rules", model by
 * provider): only openai models carry {@code fallbackModels}, {@code semanticCachingEnabled} and {@code numFastTurns};
 * custom-llm models need a {@code url}, and only they take one; only anthropic and anthropic-bedrock models take
 * {@code thinking}.
 */
@Documented
@Constraint(validatedBy = ModelRulesValidator.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface ModelRules {

    String message() default "model settings do not fit the provider";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
