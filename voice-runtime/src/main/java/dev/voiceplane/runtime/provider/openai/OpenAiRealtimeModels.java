package dev.voiceplane.runtime.provider.openai;

import dev.voiceplane.contracts.catalog.RealtimeModels;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.RealtimeModel;
import dev.voiceplane.runtime.provider.RealtimeRequest;
import dev.voiceplane.runtime.provider.RealtimeSession;
import dev.voiceplane.runtime.provider.RealtimeProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import io.vertx.core.Context;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * {@code model.provider: openai} with one of OpenAI's Realtime models ({@link RealtimeModels#OPENAI}), with the
 * organisation's {@code openai} key: the socket is {@code VOICE_OPENAI_API_URL} with its scheme made ws(s) and
 * {@code /realtime?model=<id>} appended ({@link OpenAiRealtimeSession}). {@code voice.voiceId}, when the assistant has
 * a voice, is the Realtime voice.
 */
@Singleton
class OpenAiRealtimeModels implements RealtimeProvider {

    private final ProviderClients clients;

    OpenAiRealtimeModels(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("openai"));
    }

    @Override
    public boolean serves(ModelSettings model) {
        return RealtimeModels.realtime(model.provider(), model.model());
    }

    @Override
    public Optional<String> refused(ModelSettings model, VoiceSettings voice) {
        if (voice != null && voice.voiceId() != null && !RealtimeModels.OPENAI_VOICES.contains(voice.voiceId())) {
            return Optional.of("has no voice " + voice.voiceId() + " (its voices: "
                    + String.join(", ", RealtimeModels.OPENAI_VOICES) + ")");
        }
        return Optional.empty();
    }

    @Override
    public RealtimeModel open(Context context, ModelSettings model, Credential credential, AudioFormat format) {
        // The setting voice.runtime.url.openai-realtime points the sessions elsewhere than the chat (a test's fake).
        String base = clients.url("openai-realtime", "VOICE_OPENAI_API_URL",
                clients.url("openai", "VOICE_OPENAI_API_URL", "https://api.openai.com/v1"));
        String url = ProviderClients.webSocketUrl(base) + "/realtime?model="
                + URLEncoder.encode(model.model(), StandardCharsets.UTF_8);
        long deadline = clients.deadlines().firstTokenMillis();
        return new RealtimeModel() {
            @Override
            public RealtimeSession open(RealtimeRequest request, RealtimeSession.Listener listener) {
                return OpenAiRealtimeSession.open(context, clients.webSockets(), url, credential.apiKey(), request,
                        format, listener, clients.json(), deadline);
            }

            /** {@code turn_detection: null}, with {@code input_audio_buffer.commit} and {@code .clear}. */
            @Override
            public boolean takesRuntimeTurns() {
                return true;
            }
        };
    }
}
