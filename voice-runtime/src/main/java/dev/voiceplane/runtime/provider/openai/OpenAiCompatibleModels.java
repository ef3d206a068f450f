package dev.voiceplane.runtime.provider.openai;

import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelProvider;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every model provider that speaks OpenAI's chat completions ({@link OpenAiChat}) at a base URL of its own, with
 * {@code Authorization: Bearer <key>}. One more such provider is one line of {@link #COMPATIBLE} (and its value in the
 * API's catalogue). {@code custom-llm} is the assistant's own server: {@code model.url}, key optional.
 */
@Singleton
class OpenAiCompatibleModels implements ModelProvider {

    /** A provider value, the variable naming its base URL, and its public base URL (ending before /chat/completions). */
    record Compatible(String provider, String variable, String url) {
    }

    static final List<Compatible> COMPATIBLE = List.of(
            new Compatible("openai", "VOICE_OPENAI_API_URL", "https://api.openai.com/v1"),
            new Compatible("groq", "VOICE_GROQ_API_URL", "https://api.groq.com/openai/v1"),
            new Compatible("together-ai", "VOICE_TOGETHER_API_URL", "https://api.together.xyz/v1"),
            new Compatible("anyscale", "VOICE_ANYSCALE_API_URL", "https://api.endpoints.anyscale.com/v1"),
            new Compatible("openrouter", "VOICE_OPENROUTER_API_URL", "https://openrouter.ai/api/v1"),
            new Compatible("perplexity-ai", "VOICE_PERPLEXITY_API_URL", "https://api.perplexity.ai"),
            new Compatible("deepinfra", "VOICE_DEEPINFRA_API_URL", "https://api.deepinfra.com/v1/openai"),
            new Compatible("xai", "VOICE_XAI_API_URL", "https://api.x.ai/v1"),
            new Compatible("cerebras", "VOICE_CEREBRAS_API_URL", "https://api.cerebras.ai/v1"),
            new Compatible("deep-seek", "VOICE_DEEPSEEK_API_URL", "https://api.deepseek.com"));

    static final String CUSTOM = "custom-llm";

    private final ProviderClients clients;
    private final Map<String, Compatible> byName = new HashMap<>();

    OpenAiCompatibleModels(ProviderClients clients) {
        this.clients = clients;
        COMPATIBLE.forEach(compatible -> byName.put(compatible.provider(), compatible));
    }

    @Override
    public List<ProviderName> names() {
        List<ProviderName> names = new java.util.ArrayList<>();
        COMPATIBLE.forEach(compatible -> names.add(ProviderName.of(compatible.provider())));
        names.add(new ProviderName(CUSTOM, CUSTOM, true));
        return List.copyOf(names);
    }

    @Override
    public Optional<String> refused(ModelSettings settings) {
        if (CUSTOM.equals(settings.provider()) && settings.url() == null) {
            return Optional.of("needs model.url");
        }
        return Optional.empty();
    }

    @Override
    public LanguageModel open(ModelSettings settings, Credential credential) {
        String base;
        if (CUSTOM.equals(settings.provider())) {
            base = settings.url().replaceAll("/+$", "");
        } else {
            Compatible compatible = byName.get(settings.provider());
            base = clients.url(compatible.provider(), compatible.variable(), compatible.url());
        }
        Map<String, String> headers = credential.apiKey() == null ? Map.of()
                : Map.of("Authorization", "Bearer " + credential.apiKey());
        return new OpenAiChat(clients.vertx(), clients.http(), clients.json(), settings.provider(),
                new OpenAiChat.Endpoint(base + "/chat/completions", headers), clients.timeoutMillis(),
                clients.deadlines().firstTokenMillis());
    }
}
