package dev.voiceplane.runtime.provider.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.HttpVoice;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoiceProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;

/**
 * {@code voice.provider: openai}: {@code POST <VOICE_OPENAI_API_URL>/audio/speech}, {@code response_format: pcm}
 * (24 kHz PCM16, resampled to the call's format); {@code voice.model} picks the model ({@value #DEFAULT_MODEL} when
 * unset), {@code speed} is sent as it is.
 */
@Singleton
class OpenAiVoices implements VoiceProvider {

    static final String DEFAULT_MODEL = "tts-1";

    private final ProviderClients clients;

    OpenAiVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("openai"));
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        String url = clients.url("openai", "VOICE_OPENAI_API_URL", "https://api.openai.com/v1") + "/audio/speech";
        String model = voice.text("model", DEFAULT_MODEL);
        Map<String, String> headers = Map.of("Authorization", "Bearer " + credential.apiKey());
        return new HttpVoice(clients.vertx(), clients.http(), voice.provider(), text -> {
            ObjectNode body = clients.json().createObjectNode().put("model", model).put("input", text)
                    .put("voice", voice.voiceId()).put("response_format", "pcm");
            if (voice.speed() != null) {
                body.put("speed", voice.speed());
            }
            return new HttpVoice.Request(url, headers, body.toString());
        }, format, 24000, clients.timeoutMillis(), clients.deadlines().firstAudioMillis());
    }
}
