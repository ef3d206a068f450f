package dev.voiceplane.runtime.provider.google;

import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ModelProvider;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Google's Gemini models ({@code model.provider: google}) through the Gemini API ({@link GeminiChat}), with the
 * organisation's {@code google} key, at {@code VOICE_GOOGLE_API_URL}
 * ({@code https://generativelanguage.googleapis.com}). The model id is part of the request's URL, so an id that is
 * not one (anything but letters, digits, {@code .}, {@code -} and {@code _}, after an optional {@code models/}) is
 * refused before the call starts.
 */
@Singleton
class GoogleModels implements ModelProvider {

    static final String PROVIDER = "google";
    private static final Pattern MODEL_ID = Pattern.compile("(models/)?[A-Za-z0-9][A-Za-z0-9._-]*");

    private final ProviderClients clients;

    GoogleModels(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(ModelSettings settings) {
        if (settings.model() == null || settings.model().isBlank()) {
            return Optional.of("needs model.model (a Gemini model id such as gemini-2.5-flash)");
        }
        List<String> ids = new ArrayList<>(settings.fallbackModels());
        ids.add(0, settings.model());
        for (String id : ids) {
            if (!MODEL_ID.matcher(id).matches()) {
                return Optional.of("takes Gemini model ids (letters, digits, '.', '-', '_'), not " + id);
            }
        }
        return Optional.empty();
    }

    @Override
    public LanguageModel open(ModelSettings settings, Credential credential) {
        String base = clients.url(PROVIDER, "VOICE_GOOGLE_API_URL", "https://generativelanguage.googleapis.com");
        return new GeminiChat(clients.vertx(), clients.http(), clients.json(), PROVIDER, base, credential.apiKey(),
                clients.timeoutMillis(), clients.deadlines().firstTokenMillis());
    }
}
