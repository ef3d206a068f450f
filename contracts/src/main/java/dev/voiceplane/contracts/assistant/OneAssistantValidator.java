package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class OneAssistantValidator implements ConstraintValidator<OneAssistant, SquadMember> {

    @Override
    public boolean isValid(SquadMember member, ConstraintValidatorContext context) {
        if (member == null) {
            return true;
        }
        boolean byId = member.assistantId() != null;
        boolean inline = member.assistant() != null;
        if (byId && inline) {
            Messages.replace(context, "must have either assistantId or assistant, not both");
            return false;
        }
        return byId || inline;
    }
}
