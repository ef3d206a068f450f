package dev.voiceplane.runtime.provider.openai;

import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelProvider;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderFailure;
import dev.voiceplane.runtime.provider.ProviderName;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Azure OpenAI ({@code model.provider: azure-openai}): OpenAI's chat completions ({@link OpenAiChat}) at a deployment
 * of the organisation's Azure resource, {@code <endpoint>/openai/deployments/<deployment>/chat/completions
 * ?api-version=<version>}, with the key in {@code api-key}. The deployment is {@code model.model} (and each of
 * {@code model.fallbackModels}, a deployment too), as the assistant names it.
 *
 * <p>The endpoint: {@code VOICE_AZURE_OPENAI_URL} when set (an operator's gateway in front of Azure, or a test's fake),
 * whatever the credential says, as {@code VOICE_AZURE_SPEECH_URL} is for the region; otherwise the organisation's
 * {@code azure-openai} credential's {@code openAIEndpoint} (e.g. {@code https://acme.openai.azure.com}), since each
 * organisation has a resource of its own. With neither, the call cannot start. The API version:
 * {@code VOICE_AZURE_OPENAI_API_VERSION}, else {@value #DEFAULT_API_VERSION} (the newest generally available version
 * of the deployment API, which takes {@code stream_options.include_usage}).
 */
@Singleton
class AzureOpenAiModels implements ModelProvider {

    static final String PROVIDER = "azure-openai";
    static final String DEFAULT_API_VERSION = "2024-10-21";
    /** The credential's field naming its resource's endpoint. */
    static final String ENDPOINT = "openAIEndpoint";
    /** Azure's deployment names: letters, digits, {@code .}, {@code -} and {@code _} (they go in the URL's path). */
    private static final Pattern DEPLOYMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final ProviderClients clients;

    AzureOpenAiModels(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(ModelSettings settings) {
        if (settings.model() == null || settings.model().isBlank()) {
            return Optional.of("needs model.model (the name of an Azure OpenAI deployment)");
        }
        List<String> deployments = new ArrayList<>(settings.fallbackModels());
        deployments.add(0, settings.model());
        for (String deployment : deployments) {
            if (!DEPLOYMENT.matcher(deployment).matches()) {
                return Optional.of("takes deployment names (letters, digits, '.', '-', '_'), not " + deployment);
            }
        }
        return Optional.empty();
    }

    @Override
    public LanguageModel open(ModelSettings settings, Credential credential) {
        String endpoint = clients.setting("voice.runtime.url." + PROVIDER)
                .or(() -> clients.setting("VOICE_AZURE_OPENAI_URL"))
                .or(() -> Optional.ofNullable(credential.field(ENDPOINT)).filter(value -> !value.isBlank()))
                .map(url -> url.replaceAll("/+$", ""))
                .orElseThrow(() -> new ProviderFailure(ProviderDirectory.MODEL, PROVIDER, "config", "the organisation's "
                        + PROVIDER + " credential has no " + ENDPOINT + " and VOICE_AZURE_OPENAI_URL is not set"));
        String version = clients.setting("VOICE_AZURE_OPENAI_API_VERSION").orElse(DEFAULT_API_VERSION);
        Map<String, String> headers = credential.apiKey() == null ? Map.of() : Map.of("api-key", credential.apiKey());
        // One endpoint per deployment: a fallback model is another deployment of the same resource.
        return (request, listener) -> new OpenAiChat(clients.vertx(), clients.http(), clients.json(), PROVIDER,
                new OpenAiChat.Endpoint(endpoint + "/openai/deployments/" + request.model()
                        + "/chat/completions?api-version=" + version, headers),
                clients.timeoutMillis(), clients.deadlines().firstTokenMillis()).stream(request, listener);
    }
}
