package dev.voiceplane.runtime.provider.google;

import dev.voiceplane.contracts.catalog.RealtimeModels;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.RealtimeModel;
import dev.voiceplane.runtime.provider.RealtimeProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import io.vertx.core.Context;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * {@code model.provider: google} with one of the Gemini Live models ({@link RealtimeModels#GOOGLE}), with the
 * organisation's {@code google} key: the socket is the Gemini API's {@code BidiGenerateContent} WebSocket under
 * {@code VOICE_GOOGLE_API_URL} (the chat's address, its scheme made ws(s)) or under the setting
 * {@code voice.runtime.url.google-live} when set ({@link GeminiLiveSession}). {@code voice.voiceId}, when the
 * assistant has a voice, is the Live voice.
 */
@Singleton
class GeminiLiveModels implements RealtimeProvider {

    /** The path of the Live API's WebSocket, after the API's address. */
    static final String PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

    private final ProviderClients clients;

    GeminiLiveModels(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(GoogleModels.PROVIDER));
    }

    @Override
    public boolean serves(ModelSettings model) {
        return RealtimeModels.realtime(model.provider(), model.model());
    }

    @Override
    public Optional<String> refused(ModelSettings model, VoiceSettings voice) {
        if (voice != null && voice.voiceId() != null && !RealtimeModels.GOOGLE_VOICES.contains(voice.voiceId())) {
            return Optional.of("has no voice " + voice.voiceId() + " (its voices: "
                    + String.join(", ", RealtimeModels.GOOGLE_VOICES) + ")");
        }
        return Optional.empty();
    }

    @Override
    public RealtimeModel open(Context context, ModelSettings model, Credential credential, AudioFormat format) {
        // The setting voice.runtime.url.google-live points the sessions elsewhere than the chat (a test's fake).
        String base = clients.url("google-live", "VOICE_GOOGLE_API_URL",
                clients.url(GoogleModels.PROVIDER, "VOICE_GOOGLE_API_URL",
                        "https://generativelanguage.googleapis.com"));
        String url = ProviderClients.webSocketUrl(base) + PATH;
        long deadline = clients.deadlines().firstTokenMillis();
        return (request, listener) -> GeminiLiveSession.open(context, clients.webSockets(), url, credential.apiKey(),
                request, format, listener, clients.json(), deadline);
    }
}
