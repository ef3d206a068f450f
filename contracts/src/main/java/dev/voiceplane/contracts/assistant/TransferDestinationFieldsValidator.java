package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class TransferDestinationFieldsValidator
        implements ConstraintValidator<TransferDestinationFields, TransferDestination> {

    private static final String REQUIRED = "should not be null or undefined";

    @Override
    public boolean isValid(TransferDestination destination, ConstraintValidatorContext context) {
        if (destination == null || destination.type() == null) {
            return true; // a missing or unknown type is reported on its own
        }
        context.disableDefaultConstraintViolation();
        boolean valid = true;
        switch (destination.type()) {
            case TransferDestination.ASSISTANT -> {
                if (destination.assistantName() == null) {
                    Messages.onProperty(context, "assistantName", REQUIRED);
                    valid = false;
                }
                if (destination.number() != null) {
                    // Worded as an unknown property is: an assistant destination has no number.
                    Messages.onProperty(context, "property", "number should not exist");
                    valid = false;
                }
            }
            case TransferDestination.NUMBER -> {
                if (destination.number() == null) {
                    Messages.onProperty(context, "number", REQUIRED);
                    valid = false;
                }
                if (destination.assistantName() != null) {
                    Messages.onProperty(context, "property", "assistantName should not exist");
                    valid = false;
                }
            }
            default -> {
            }
        }
        return valid;
    }
}
