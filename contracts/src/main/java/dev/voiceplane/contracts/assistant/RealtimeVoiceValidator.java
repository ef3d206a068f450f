package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.RealtimeModels;
import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.Set;

/** {@link RealtimeVoice}: a realtime model's {@code voice.voiceId} is one of its voices. */
public class RealtimeVoiceValidator implements ConstraintValidator<RealtimeVoice, AssistantBody> {

    @Override
    public boolean isValid(AssistantBody assistant, ConstraintValidatorContext context) {
        if (assistant == null || assistant.model == null || assistant.voice == null
                || assistant.voice.voiceId() == null
                || !RealtimeModels.realtime(assistant.model.provider(), assistant.model.model())) {
            return true;
        }
        Set<String> voices = RealtimeModels.voices(assistant.model.provider());
        if (voices.contains(assistant.voice.voiceId())) {
            return true;
        }
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(Messages.literal("must be a voice of the realtime model "
                        + assistant.model.model() + ": " + String.join(", ", voices)))
                .addPropertyNode("voice").addPropertyNode("voiceId").addConstraintViolation();
        return false;
    }
}
