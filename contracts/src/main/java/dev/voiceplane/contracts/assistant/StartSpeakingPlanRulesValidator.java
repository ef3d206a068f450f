package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class StartSpeakingPlanRulesValidator implements ConstraintValidator<StartSpeakingPlanRules, StartSpeakingPlan> {

    static final String LIVEKIT = "livekit";

    @Override
    public boolean isValid(StartSpeakingPlan plan, ConstraintValidatorContext context) {
        JsonNode enabled = plan == null ? null : plan.smartEndpointingEnabled();
        if (enabled == null || enabled.isNull() || enabled.isBoolean()
                || enabled.isTextual() && LIVEKIT.equals(enabled.asText())) {
            return true;
        }
        context.disableDefaultConstraintViolation();
        Messages.onProperty(context, "smartEndpointingEnabled", "must be a boolean value or " + LIVEKIT);
        return false;
    }
}
