package dev.voiceplane.contracts.catalog;

import java.util.Set;

/** The provider lists of the kit's catalogue that an assistant's configuration refers to. */
public enum ProviderCatalogue {
    TRANSCRIBER(Providers.TRANSCRIBER),
    MODEL(Providers.MODEL),
    VOICE(Providers.VOICE),
    KNOWLEDGE_BASE(Providers.KNOWLEDGE_BASE),
    VOICEMAIL_DETECTION(Providers.VOICEMAIL_DETECTION);

    private final Set<String> providers;

    ProviderCatalogue(Set<String> providers) {
        this.providers = providers;
    }

    public Set<String> providers() {
        return providers;
    }

    /** True for a listed provider or a neutral word that stands for one. */
    public boolean accepts(String value) {
        return providers.contains(Providers.canonical(value));
    }
}
