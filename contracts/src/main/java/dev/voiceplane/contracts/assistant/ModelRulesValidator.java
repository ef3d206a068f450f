package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.LinkedHashMap;
import java.util.Map;

public class ModelRulesValidator implements ConstraintValidator<ModelRules, Model> {

    static final String OPENAI = "openai";
    static final String CUSTOM_LLM = "custom-llm";
    static final java.util.Set<String> THINKING = java.util.Set.of("anthropic", "anthropic-bedrock");

    @Override
    public boolean isValid(Model model, ConstraintValidatorContext context) {
        if (model == null || model.provider() == null || !ProviderCatalogue.MODEL.accepts(model.provider())) {
            return true; // a missing or unknown provider is reported on its own
        }
        String provider = Providers.canonical(model.provider());
        context.disableDefaultConstraintViolation();
        boolean valid = true;
        if (!provider.equals(OPENAI)) {
            Map<String, Object> openAiOnly = new LinkedHashMap<>();
            openAiOnly.put("fallbackModels", model.fallbackModels());
            openAiOnly.put("semanticCachingEnabled", model.semanticCachingEnabled());
            openAiOnly.put("numFastTurns", model.numFastTurns());
            for (Map.Entry<String, Object> setting : openAiOnly.entrySet()) {
                if (setting.getValue() != null) {
                    Messages.onProperty(context, setting.getKey(), "is only supported by openai models");
                    valid = false;
                }
            }
        }
        if (provider.equals(CUSTOM_LLM) && model.url() == null) {
            Messages.onProperty(context, "url", "should not be null or undefined when provider is custom-llm");
            valid = false;
        }
        if (!provider.equals(CUSTOM_LLM) && model.url() != null) {
            Messages.onProperty(context, "url", "is only supported by custom-llm models");
            valid = false;
        }
        if (!THINKING.contains(provider) && model.thinking() != null) {
            Messages.onProperty(context, "thinking", "is only supported by anthropic, anthropic-bedrock models");
            valid = false;
        }
        return valid;
    }
}
