package dev.voiceplane.runtime.provider.soniox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/**
 * {@code transcriber.provider: soniox}: Soniox's real-time API ({@link SonioxTranscriber}) at
 * {@code VOICE_SONIOX_URL} ({@value #DEFAULT_URL}) {@code /transcribe-websocket}, with the organisation's
 * {@code soniox} key: in the {@code Authorization} header, as Soniox's WebSocket authentication asks, and, for the
 * servers that still read it there, as the start message's {@code api_key} (deprecated by Soniox, refused alone from
 * 15 January 2027).
 *
 * <p>What the assistant says goes in the start message: {@code model} ({@value #DEFAULT_MODEL} when unset),
 * {@code language} as the one language hint, {@code languageHintsStrict} as {@code language_hints_strict},
 * {@code customVocabulary} as the context's {@code terms}, {@code maxEndpointDelayMs} as
 * {@code max_endpoint_delay_ms}; endpoint detection is on, so Soniox may end a turn by itself, and the runtime's end
 * of speech finalizes it at once.
 */
@Singleton
class SonioxTranscribers implements TranscriberProvider {

    static final String PROVIDER = "soniox";
    static final String DEFAULT_URL = "wss://stt-rt.soniox.com";
    static final String DEFAULT_MODEL = "stt-rt-v4";

    private final ProviderClients clients;

    SonioxTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        String url = ProviderClients.webSocketUrl(clients.url(PROVIDER, "VOICE_SONIOX_URL", DEFAULT_URL))
                + "/transcribe-websocket";
        return SonioxTranscriber.open(context, clients.webSockets(), url, credential.apiKey(),
                config(settings, credential.apiKey(), format).toString(), format, listener, clients.json(),
                clients.deadlines().transcriberMillis());
    }

    private ObjectNode config(TranscriberSettings settings, String apiKey, AudioFormat format) {
        JsonNode raw = settings.raw() == null ? clients.json().createObjectNode() : settings.raw();
        ObjectNode config = clients.json().createObjectNode();
        if (apiKey != null) {
            config.put("api_key", apiKey);
        }
        config.put("model", settings.modelOr(DEFAULT_MODEL))
                .put("audio_format", format == AudioFormat.ULAW_8K ? "mulaw" : "pcm_s16le")
                .put("sample_rate", format.sampleRate())
                .put("num_channels", 1)
                .put("enable_endpoint_detection", true);
        if (settings.language() != null && !settings.language().isBlank()) {
            config.putArray("language_hints").add(settings.language());
        }
        if (raw.path("languageHintsStrict").isBoolean()) {
            config.put("language_hints_strict", raw.path("languageHintsStrict").asBoolean());
        }
        if (raw.path("customVocabulary").isArray() && !raw.path("customVocabulary").isEmpty()) {
            ArrayNode terms = config.putObject("context").putArray("terms");
            raw.path("customVocabulary").forEach(term -> terms.add(term.asText()));
        }
        if (raw.path("maxEndpointDelayMs").isNumber()) {
            config.put("max_endpoint_delay_ms", raw.path("maxEndpointDelayMs").asLong());
        }
        return config;
    }
}
