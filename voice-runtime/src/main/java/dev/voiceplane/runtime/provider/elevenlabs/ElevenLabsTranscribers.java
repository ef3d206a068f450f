package dev.voiceplane.runtime.provider.elevenlabs;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Optional;

/**
 * {@code transcriber.provider: 11labs}: ElevenLabs' realtime Scribe ({@link ElevenLabsTranscriber}) at
 * {@code VOICE_ELEVENLABS_URL} (the voices' base URL, its WebSocket scheme), with the organisation's {@code 11labs} key.
 *
 * <p>What the assistant says is sent: {@code model} as {@code model_id} ({@value #DEFAULT_MODEL} when unset; a model
 * that is not a realtime one, {@code scribe_v1} or {@code scribe_v2}, is refused at the call's start: ElevenLabs
 * serves those for files only), {@code language} as {@code language_code}. The runtime's own end of speech commits
 * each segment ({@code commit_strategy=manual}); an assistant that sets ElevenLabs' VAD ({@code silenceThresholdSeconds},
 * {@code minSpeechDurationMs}, {@code minSilenceDurationMs}, {@code confidenceThreshold}) gets
 * {@code commit_strategy=vad} with them ({@code vad_silence_threshold_secs}, {@code min_speech_duration_ms},
 * {@code min_silence_duration_ms}, {@code vad_threshold}), and ElevenLabs ends the turns.
 */
@Singleton
class ElevenLabsTranscribers implements TranscriberProvider {

    static final String PROVIDER = "11labs";
    static final String DEFAULT_MODEL = "scribe_v2_realtime";

    private final ProviderClients clients;

    ElevenLabsTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(TranscriberSettings settings) {
        String model = settings.modelOr(DEFAULT_MODEL);
        if (!model.contains("realtime")) {
            return Optional.of("model " + model + " is not a realtime model (ElevenLabs transcribes files with it;"
                    + " live calls take " + DEFAULT_MODEL + ")");
        }
        return Optional.empty();
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        String base = ProviderClients.webSocketUrl(clients.url("elevenlabs", "VOICE_ELEVENLABS_URL",
                "https://api.elevenlabs.io"));
        boolean manual = !usesVad(settings.raw());
        return ElevenLabsTranscriber.open(context, clients.webSockets(), base + "/v1/speech-to-text/realtime?"
                + query(settings, format, manual), credential.apiKey(), format, manual, listener, clients.json(),
                clients.deadlines().transcriberMillis());
    }

    private static boolean usesVad(JsonNode raw) {
        return raw != null && (raw.path("silenceThresholdSeconds").isNumber() || raw.path("minSpeechDurationMs")
                .isNumber() || raw.path("minSilenceDurationMs").isNumber() || raw.path("confidenceThreshold").isNumber());
    }

    static String query(TranscriberSettings settings, AudioFormat format, boolean manual) {
        StringBuilder query = new StringBuilder("model_id=").append(encode(settings.modelOr(DEFAULT_MODEL)))
                .append("&audio_format=").append(format == AudioFormat.ULAW_8K ? "ulaw_8000" : "pcm_16000")
                .append("&commit_strategy=").append(manual ? "manual" : "vad");
        if (settings.language() != null && !settings.language().isBlank()) {
            query.append("&language_code=").append(encode(settings.language()));
        }
        JsonNode raw = settings.raw();
        if (!manual && raw != null) {
            number(query, raw, "silenceThresholdSeconds", "vad_silence_threshold_secs");
            number(query, raw, "confidenceThreshold", "vad_threshold");
            number(query, raw, "minSpeechDurationMs", "min_speech_duration_ms");
            number(query, raw, "minSilenceDurationMs", "min_silence_duration_ms");
        }
        return query.toString();
    }

    private static void number(StringBuilder query, JsonNode raw, String setting, String parameter) {
        JsonNode value = raw.path(setting);
        if (value.isNumber()) {
            query.append('&').append(parameter).append('=').append(value.isIntegralNumber() ? value.asText()
                    : value.decimalValue().stripTrailingZeros().toPlainString());
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
