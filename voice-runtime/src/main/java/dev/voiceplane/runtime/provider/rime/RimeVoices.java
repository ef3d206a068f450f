package dev.voiceplane.runtime.provider.rime;

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
import java.util.Optional;
import java.util.Set;

/**
 * {@code voice.provider: rime-ai}: Rime's streaming HTTP speech, {@code POST /v1/rime-tts} with
 * {@code Authorization: Bearer}, asked for the call's own format in {@code Accept} ({@code audio/PCMU}, headerless
 * μ-law at {@code samplingRate} 8000, or {@code audio/L16}, headerless PCM16 at 16000: nothing to convert). The body
 * is {@code speaker} ({@code voice.voiceId}), {@code text}, {@code modelId} ({@code voice.model}, {@value #DEFAULT_MODEL}
 * when unset), {@code lang} ({@code voice.language}, when set) and the speed: Rime's speed fields are time scales
 * (above 1 is slower), so {@code speed} is sent as its inverse, as {@code speedAlpha} to the Mist models before v3
 * and as {@code timeScaleFactor} (Rime's recommended field) to the others. Base URL: {@code VOICE_RIME_URL}.
 */
@Singleton
class RimeVoices implements VoiceProvider {

    static final String PROVIDER = "rime-ai";
    static final String DEFAULT_MODEL = "mistv2";
    /** The models whose speed field is {@code speedAlpha} (the others take {@code timeScaleFactor}). */
    static final Set<String> SPEED_ALPHA_MODELS = Set.of("mist", "mistv2", "v1");

    private final ProviderClients clients;

    RimeVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(VoiceSettings voice) {
        return voice.voiceId() == null || voice.voiceId().isBlank()
                ? Optional.of("needs voice.voiceId: a Rime speaker such as cove")
                : Optional.empty();
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        String url = clients.url(PROVIDER, "VOICE_RIME_URL", "https://users.rime.ai") + "/v1/rime-tts";
        boolean mulaw = format == AudioFormat.ULAW_8K;
        Map<String, String> headers = Map.of("Authorization", "Bearer " + credential.apiKey(),
                "Accept", mulaw ? "audio/PCMU" : "audio/L16");
        String model = voice.text("model", DEFAULT_MODEL);
        String lang = voice.text("language", null);
        return new HttpVoice(clients.vertx(), clients.http(), voice.provider(), text -> {
            ObjectNode body = clients.json().createObjectNode().put("speaker", voice.voiceId()).put("text", text)
                    .put("modelId", model).put("samplingRate", format.sampleRate());
            if (lang != null) {
                body.put("lang", lang);
            }
            if (voice.speed() != null && voice.speed() > 0) {
                body.put(SPEED_ALPHA_MODELS.contains(model) ? "speedAlpha" : "timeScaleFactor", 1 / voice.speed());
            }
            return new HttpVoice.Request(url, headers, body.toString());
        }, format, null, clients.timeoutMillis(), clients.deadlines().firstAudioMillis());
    }
}
