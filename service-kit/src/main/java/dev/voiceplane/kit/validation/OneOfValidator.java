package dev.voiceplane.kit.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

public class OneOfValidator implements ConstraintValidator<OneOf, String> {

    private Set<String> accepted;

    @Override
    public void initialize(OneOf annotation) {
        accepted = Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(annotation.value())));
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        if (value == null || accepted.contains(value)) {
            return true;
        }
        Messages.replace(context, Messages.mustBeOneOf(accepted));
        return false;
    }
}
