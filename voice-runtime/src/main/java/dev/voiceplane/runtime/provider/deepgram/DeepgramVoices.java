package dev.voiceplane.runtime.provider.deepgram;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoiceProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * {@code voice.provider: deepgram}: Aura over Deepgram's TTS WebSocket ({@link DeepgramAura}), one socket per call:
 * {@code /v1/speak?model=<voice.voiceId>} (an Aura model such as {@code aura-2-thalia-en}) asked for the call's own
 * format ({@code mulaw} 8 kHz or {@code linear16} 16 kHz), {@code speed} as sent (0.7 to 1.5). Base URL:
 * {@code VOICE_DEEPGRAM_URL}, shared with the transcriber (either scheme pair); credential {@code deepgram}.
 */
@Singleton
class DeepgramVoices implements VoiceProvider {

    static final double MIN_SPEED = 0.7;
    static final double MAX_SPEED = 1.5;

    private final ProviderClients clients;

    DeepgramVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of("deepgram"));
    }

    @Override
    public Optional<String> refused(VoiceSettings voice) {
        if (voice.voiceId() == null || voice.voiceId().isBlank()) {
            return Optional.of("needs a voiceId (an Aura model, such as aura-2-thalia-en)");
        }
        if (voice.speed() != null && (voice.speed() < MIN_SPEED || voice.speed() > MAX_SPEED)) {
            return Optional.of("takes a speed between " + MIN_SPEED + " and " + MAX_SPEED + ", not " + voice.speed());
        }
        return Optional.empty();
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        StringBuilder url = new StringBuilder(ProviderClients.webSocketUrl(
                clients.url("deepgram", "VOICE_DEEPGRAM_URL", "wss://api.deepgram.com")));
        url.append("/v1/speak?model=").append(URLEncoder.encode(voice.voiceId(), StandardCharsets.UTF_8));
        url.append(format == AudioFormat.ULAW_8K ? "&encoding=mulaw&sample_rate=8000"
                : "&encoding=linear16&sample_rate=16000");
        if (voice.speed() != null) {
            url.append("&speed=").append(voice.speed());
        }
        return new DeepgramAura(clients, url.toString(), credential.apiKey(), voice.provider());
    }
}
