package dev.voiceplane.runtime.provider.openai;

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
import java.util.Locale;

/**
 * {@code transcriber.provider: openai}, with the organisation's {@code openai} key, at
 * {@code VOICE_OPENAI_TRANSCRIPTION_URL} when it is set (a self-hosted Whisper server while the models stay at
 * OpenAI), else at {@code VOICE_OPENAI_API_URL}. Which way is the model's: a model named {@code gpt-…}
 * ({@code gpt-4o-transcribe}, the default; {@code gpt-4o-mini-transcribe}, {@code gpt-realtime-whisper}) streams over
 * the Realtime API ({@link OpenAiRealtimeTranscriber}); any other ({@code whisper-1}, a self-hosted server's own model
 * such as {@code Systran/faster-whisper-large-v3}) is transcribed per utterance with
 * {@code POST /audio/transcriptions} ({@link OpenAiUtteranceTranscriber}). {@code transcriber.model} and
 * {@code transcriber.language} are sent as they are.
 */
@Singleton
class OpenAiTranscribers implements TranscriberProvider {

    static final String DEFAULT_MODEL = "gpt-4o-transcribe";

    private final ProviderClients clients;

    OpenAiTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("openai"));
    }

    /** Whether {@code model} streams over the Realtime API (else: per utterance). */
    static boolean streams(String model) {
        return model.toLowerCase(Locale.ROOT).startsWith("gpt-");
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        String base = clients.url("openai-transcription", "VOICE_OPENAI_TRANSCRIPTION_URL",
                clients.url("openai", "VOICE_OPENAI_API_URL", "https://api.openai.com/v1"));
        String model = settings.modelOr(DEFAULT_MODEL);
        long deadline = clients.deadlines().transcriberMillis();
        if (streams(model)) {
            return OpenAiRealtimeTranscriber.open(context, clients.webSockets(),
                    ProviderClients.webSocketUrl(base) + "/realtime?intent=transcription", credential.apiKey(), model,
                    settings.language(), format, listener, clients.json(), deadline);
        }
        return new OpenAiUtteranceTranscriber(clients.vertx(), clients.http(), clients.json(),
                ProviderClients.httpUrl(base) + "/audio/transcriptions", credential.apiKey(), model,
                settings.language(), format, listener, deadline, clients.timeoutMillis());
    }
}
