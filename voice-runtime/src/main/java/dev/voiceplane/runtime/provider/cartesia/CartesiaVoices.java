package dev.voiceplane.runtime.provider.cartesia;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoiceProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * {@code voice.provider: cartesia}: Sonic over Cartesia's TTS WebSocket ({@link CartesiaVoice}), one socket per call
 * and one context per text piece, asked for the call's own format ({@code pcm_mulaw} 8 kHz or {@code pcm_s16le}
 * 16 kHz: nothing to convert). {@code voice.model} picks the model ({@value #DEFAULT_MODEL} when unset),
 * {@code voice.language} the language, {@code speed} goes in {@code generation_config} (0.6 to 1.5, honoured by the
 * Sonic 3 models). Base URL: {@code VOICE_CARTESIA_URL}; credential {@code cartesia} ({@code apiKey}).
 */
@Singleton
class CartesiaVoices implements VoiceProvider {

    static final String DEFAULT_MODEL = "sonic-3";
    static final double MIN_SPEED = 0.6;
    static final double MAX_SPEED = 1.5;

    private final ProviderClients clients;

    CartesiaVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("cartesia"));
    }

    @Override
    public Optional<String> refused(VoiceSettings voice) {
        if (voice.voiceId() == null || voice.voiceId().isBlank()) {
            return Optional.of("needs a voiceId (the id of a Cartesia voice)");
        }
        if (voice.speed() != null && (voice.speed() < MIN_SPEED || voice.speed() > MAX_SPEED)) {
            return Optional.of("takes a speed between " + MIN_SPEED + " and " + MAX_SPEED + ", not " + voice.speed());
        }
        return Optional.empty();
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        String url = ProviderClients.webSocketUrl(clients.url("cartesia", "VOICE_CARTESIA_URL",
                "https://api.cartesia.ai")) + "/tts/websocket";
        return new CartesiaVoice(clients, url, credential.apiKey(), voice, format);
    }
}
