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

/** {@code transcriber.provider: deepgram}: Nova models over {@code /v1/listen} ({@link DeepgramTranscriber}). */
@Singleton
class DeepgramTranscribers implements TranscriberProvider {

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
        return DeepgramTranscriber.open(context, clients.webSockets(), clients.url("deepgram", "VOICE_DEEPGRAM_URL", "wss://api.deepgram.com"), credential.apiKey(),
                settings, format, listener, clients.json(), clients.deadlines().transcriberMillis());
    }
}
