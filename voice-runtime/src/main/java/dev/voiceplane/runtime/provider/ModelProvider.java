package dev.voiceplane.runtime.provider;

import java.util.List;
import java.util.Optional;

/** One vendor's chat models: a CDI bean in {@code provider/<vendor>/}, found by {@link ProviderDirectory}. */
public interface ModelProvider {

    /** The {@code model.provider} values it serves. */
    List<ProviderName> names();

    /** Why it cannot run these settings (a missing URL, a value it does not take); empty when it can. */
    default Optional<String> refused(ModelSettings settings) {
        return Optional.empty();
    }

    /** The model for one call; {@link ChatRequest#model()} says which of the provider's models answers. */
    LanguageModel open(ModelSettings settings, Credential credential);
}
