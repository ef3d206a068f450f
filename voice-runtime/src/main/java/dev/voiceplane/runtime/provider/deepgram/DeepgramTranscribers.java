package dev.voiceplane.runtime.provider.deepgram;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TranscriberProvider;
import dev.voiceplane.runtime.provider.TranscriberSettings;
import io.vertx.core.Context;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * {@code transcriber.provider: deepgram}: Nova models over {@code /v1/listen} ({@link DeepgramTranscriber}), and
 * Flux over {@code /v2/listen} ({@link DeepgramFluxTranscriber}) when {@code transcriber.model} starts with
 * {@code flux} ({@code flux-general-en}, {@code flux-general-multi}). Both at {@code VOICE_DEEPGRAM_URL}.
 */
@Singleton
class DeepgramTranscribers implements TranscriberProvider {

    static final String FLUX_DEFAULT_MODEL = "flux-general-en";

    private final ProviderClients clients;

    DeepgramTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("deepgram"));
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        String base = ProviderClients.webSocketUrl(clients.url("deepgram", "VOICE_DEEPGRAM_URL", "wss://api.deepgram.com"));
        if (isFlux(settings)) {
            return DeepgramFluxTranscriber.open(context, clients.webSockets(), base, credential.apiKey(), settings,
                    format, listener, clients.json(), clients.deadlines().transcriberMillis());
        }
        return DeepgramTranscriber.open(context, clients.webSockets(), base, credential.apiKey(),
                settings, format, listener, clients.json(), clients.deadlines().transcriberMillis());
    }

    static boolean isFlux(TranscriberSettings settings) {
        return settings.model() != null && settings.model().toLowerCase(java.util.Locale.ROOT).startsWith("flux");
    }
}
