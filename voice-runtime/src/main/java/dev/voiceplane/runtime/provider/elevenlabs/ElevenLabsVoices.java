package dev.voiceplane.runtime.provider.elevenlabs;

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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code voice.provider: 11labs} (and the older {@code elevenlabs}): ElevenLabs' streaming speech,
 * {@code POST /v1/text-to-speech/{voiceId}/stream} with {@code xi-api-key}, asked for the call's own format
 * ({@code ulaw_8000} or {@code pcm_16000}: nothing to convert); {@code voice.model} picks the model
 * ({@value #DEFAULT_MODEL} when unset), {@code speed} goes in {@code voice_settings}. Base URL:
 * {@code VOICE_ELEVENLABS_URL}.
 */
@Singleton
class ElevenLabsVoices implements VoiceProvider {

    static final String DEFAULT_MODEL = "eleven_turbo_v2_5";

    private final ProviderClients clients;

    ElevenLabsVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("11labs"), ProviderName.of("elevenlabs", "11labs"));
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        String outputFormat = format == AudioFormat.ULAW_8K ? "ulaw_8000" : "pcm_16000";
        String url = clients.url("elevenlabs", "VOICE_ELEVENLABS_URL", "https://api.elevenlabs.io") + "/v1/text-to-speech/"
                + URLEncoder.encode(voice.voiceId(), StandardCharsets.UTF_8) + "/stream?output_format=" + outputFormat;
        String model = voice.text("model", DEFAULT_MODEL);
        Map<String, String> headers = Map.of("xi-api-key", credential.apiKey());
        return new HttpVoice(clients.vertx(), clients.http(), voice.provider(), text -> {
            ObjectNode body = clients.json().createObjectNode().put("text", text).put("model_id", model);
            if (voice.speed() != null) {
                body.putObject("voice_settings").put("speed", voice.speed());
            }
            return new HttpVoice.Request(url, headers, body.toString());
        }, format, null, clients.timeoutMillis(), clients.deadlines().firstAudioMillis());
    }
}
