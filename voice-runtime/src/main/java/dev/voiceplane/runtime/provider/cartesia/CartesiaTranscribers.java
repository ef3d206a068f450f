package dev.voiceplane.runtime.provider.cartesia;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TranscriberProvider;
import dev.voiceplane.runtime.provider.TranscriberSettings;
import io.vertx.core.Context;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code transcriber.provider: cartesia}: Ink over Cartesia's realtime speech-to-text WebSocket with manual
 * finalization ({@link CartesiaTranscriber}) at {@code VOICE_CARTESIA_URL}, the voices' base URL, with the
 * organisation's {@code cartesia} key. {@code model} is sent as it is ({@value #DEFAULT_MODEL} when unset),
 * {@code language} as {@code language} (Cartesia's default, {@code en}, when unset).
 */
@Singleton
class CartesiaTranscribers implements TranscriberProvider {

    static final String PROVIDER = "cartesia";
    static final String DEFAULT_MODEL = "ink-whisper";

    private final ProviderClients clients;

    CartesiaTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        String base = ProviderClients.webSocketUrl(clients.url("cartesia", "VOICE_CARTESIA_URL",
                "https://api.cartesia.ai"));
        StringBuilder url = new StringBuilder(base).append("/stt/websocket?model=")
                .append(encode(settings.modelOr(DEFAULT_MODEL)))
                .append("&encoding=").append(format == AudioFormat.ULAW_8K ? "pcm_mulaw" : "pcm_s16le")
                .append("&sample_rate=").append(format.sampleRate());
        if (settings.language() != null && !settings.language().isBlank()) {
            url.append("&language=").append(encode(settings.language()));
        }
        return CartesiaTranscriber.open(context, clients.webSockets(), url.toString(), credential.apiKey(), format,
                listener, clients.json(), clients.deadlines().transcriberMillis());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
