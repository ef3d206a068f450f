package dev.voiceplane.runtime.provider.anthropic;

import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelProvider;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * Anthropic's models ({@code model.provider: anthropic}) through the Messages API ({@link AnthropicChat}), with the
 * organisation's {@code anthropic} key, at {@code VOICE_ANTHROPIC_API_URL} ({@code https://api.anthropic.com}).
 */
@Singleton
class AnthropicModels implements ModelProvider {

    static final String PROVIDER = "anthropic";

    private final ProviderClients clients;

    AnthropicModels(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(ModelSettings settings) {
        if (settings.model() == null || settings.model().isBlank()) {
            return Optional.of("needs model.model (an Anthropic model id such as claude-sonnet-4-5)");
        }
        return Optional.empty();
    }

    @Override
    public LanguageModel open(ModelSettings settings, Credential credential) {
        String base = clients.url(PROVIDER, "VOICE_ANTHROPIC_API_URL", "https://api.anthropic.com");
        return new AnthropicChat(clients.vertx(), clients.http(), clients.json(), PROVIDER, base + "/v1/messages",
                credential.apiKey(), clients.timeoutMillis(), clients.deadlines().firstTokenMillis());
    }
}
