package dev.voiceplane.contracts.catalog;

import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

public class ProviderOfValidator implements ConstraintValidator<ProviderOf, String> {

    private ProviderCatalogue catalogue;

    @Override
    public void initialize(ProviderOf annotation) {
        catalogue = annotation.value();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        if (value == null || catalogue.accepts(value)) {
            return true;
        }
        Messages.replace(context, Providers.mustBeOneOf(catalogue.providers()));
        return false;
    }
}
