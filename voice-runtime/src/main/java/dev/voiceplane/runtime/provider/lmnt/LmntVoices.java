package dev.voiceplane.runtime.provider.lmnt;

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

/**
 * {@code voice.provider: lmnt}: LMNT's Speech API binary stream, {@code POST /v1/ai/speech/bytes} with
 * {@code X-API-Key} and {@code lmnt-version: }{@value #API_VERSION}; the body is {@code voice} ({@code voice.voiceId}),
 * {@code text}, {@code model} ({@code voice.model}, {@value #DEFAULT_MODEL} when unset), {@code language}
 * ({@code voice.language}, when set) and {@code format: pcm_s16le} at the call's rate ({@code sample_rate} 8000 for a
 * phone call, encoded to μ-law here; 16000 for a web call, as it comes). LMNT's own {@code ulaw} format starts with a
 * WAV header, which would be played as noise, so it is not asked for. LMNT's API has no speed: {@code voice.speed} is
 * not sent. Base URL: {@code VOICE_LMNT_URL}.
 */
@Singleton
class LmntVoices implements VoiceProvider {

    static final String PROVIDER = "lmnt";
    static final String DEFAULT_MODEL = "blizzard";
    /** The API version the official SDKs send (lmnt-python 2.6, May 2026). */
    static final String API_VERSION = "1.1";

    private final ProviderClients clients;

    LmntVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(VoiceSettings voice) {
        return voice.voiceId() == null || voice.voiceId().isBlank()
                ? Optional.of("needs voice.voiceId: an LMNT voice id such as leah")
                : Optional.empty();
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        String url = clients.url(PROVIDER, "VOICE_LMNT_URL", "https://api.lmnt.com") + "/v1/ai/speech/bytes";
        Map<String, String> headers = Map.of("X-API-Key", credential.apiKey(), "lmnt-version", API_VERSION,
                "Accept", "application/octet-stream");
        String model = voice.text("model", DEFAULT_MODEL);
        String language = voice.text("language", null);
        return new HttpVoice(clients.vertx(), clients.http(), voice.provider(), text -> {
            ObjectNode body = clients.json().createObjectNode().put("voice", voice.voiceId()).put("text", text)
                    .put("model", model).put("format", "pcm_s16le").put("sample_rate", format.sampleRate());
            if (language != null) {
                body.put("language", language);
            }
            return new HttpVoice.Request(url, headers, body.toString());
        }, format, format == AudioFormat.ULAW_8K ? format.sampleRate() : null, clients.timeoutMillis(),
                clients.deadlines().firstAudioMillis());
    }
}
