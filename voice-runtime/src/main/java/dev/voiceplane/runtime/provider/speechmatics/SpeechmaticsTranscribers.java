package dev.voiceplane.runtime.provider.speechmatics;

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
 * {@code transcriber.provider: speechmatics}: Speechmatics' real-time API ({@link SpeechmaticsTranscriber}) with the
 * organisation's {@code speechmatics} key, at {@code VOICE_SPEECHMATICS_URL} when set, else the assistant's
 * {@code region}'s endpoint ({@value #EU_URL}, or {@value #US_URL} for {@code us}).
 *
 * <p>What the assistant says is sent in {@code transcription_config}: {@code language} ({@code en} when unset),
 * {@code operatingPoint} as {@code operating_point}, {@code maxDelay} as {@code max_delay}, {@code enableDiarization}
 * as {@code diarization: speaker}, {@code customVocabulary} ({@code content}, {@code soundsLike}) as
 * {@code additional_vocab} ({@code content}, {@code sounds_like}), {@code removeDisfluencies} as
 * {@code transcript_filtering_config.remove_disfluencies}; partials are always asked for. {@code model} has one value,
 * {@code default}: nothing to send. {@code numeralStyle}, {@code endOfTurnSensitivity} and
 * {@code minimumSpeechDuration} are settings of Speechmatics' voice-agent SDK with no field in the real-time API: they
 * are not sent. The turn's end is the runtime's (a {@code ForceEndOfUtterance} when the caller stops), so no
 * {@code end_of_utterance_silence_trigger} is asked.
 */
@Singleton
class SpeechmaticsTranscribers implements TranscriberProvider {

    static final String PROVIDER = "speechmatics";
    static final String EU_URL = "wss://eu.rt.speechmatics.com/v2";
    static final String US_URL = "wss://us.rt.speechmatics.com/v2";

    private final ProviderClients clients;

    SpeechmaticsTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        JsonNode raw = settings.raw() == null ? clients.json().createObjectNode() : settings.raw();
        String regional = "us".equals(raw.path("region").asText()) ? US_URL : EU_URL;
        String url = ProviderClients.webSocketUrl(clients.url(PROVIDER, "VOICE_SPEECHMATICS_URL", regional));
        return SpeechmaticsTranscriber.open(context, clients.webSockets(), url, credential.apiKey(),
                startRecognition(settings, raw, format).toString(), format, listener, clients.json(),
                clients.deadlines().transcriberMillis());
    }

    private ObjectNode startRecognition(TranscriberSettings settings, JsonNode raw, AudioFormat format) {
        ObjectNode start = clients.json().createObjectNode().put("message", "StartRecognition");
        start.putObject("audio_format").put("type", "raw")
                .put("encoding", format == AudioFormat.ULAW_8K ? "mulaw" : "pcm_s16le")
                .put("sample_rate", format.sampleRate());
        ObjectNode config = start.putObject("transcription_config")
                .put("language", settings.language() == null || settings.language().isBlank() ? "en"
                        : settings.language())
                .put("enable_partials", true);
        if (raw.path("operatingPoint").isTextual()) {
            config.put("operating_point", raw.path("operatingPoint").asText());
        }
        if (raw.path("maxDelay").isNumber()) {
            config.set("max_delay", raw.path("maxDelay"));
        }
        if (raw.path("enableDiarization").asBoolean(false)) {
            config.put("diarization", "speaker");
        }
        if (raw.path("customVocabulary").isArray() && !raw.path("customVocabulary").isEmpty()) {
            ArrayNode vocabulary = config.putArray("additional_vocab");
            for (JsonNode entry : raw.path("customVocabulary")) {
                ObjectNode word = vocabulary.addObject().put("content", entry.path("content").asText());
                if (entry.path("soundsLike").isArray() && !entry.path("soundsLike").isEmpty()) {
                    word.set("sounds_like", entry.path("soundsLike"));
                }
            }
        }
        if (raw.path("removeDisfluencies").isBoolean()) {
            config.putObject("transcript_filtering_config").put("remove_disfluencies",
                    raw.path("removeDisfluencies").asBoolean());
        }
        return start;
    }
}
