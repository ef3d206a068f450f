package dev.voiceplane.runtime.provider.gladia;

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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code transcriber.provider: gladia}: Gladia's live transcription ({@link GladiaTranscriber}), its session asked of
 * {@code VOICE_GLADIA_URL} ({@value #DEFAULT_URL}) {@code /v2/live} with the organisation's {@code gladia} key.
 *
 * <p>What the assistant says goes in the session's configuration: {@code model} as it is (Gladia's default,
 * {@code solaria-1}, when unset); the languages by {@code languageBehaviour} — {@code manual} (and no behaviour with a
 * language given) the one of {@code languages}, else {@code language}; {@code automatic single language} none
 * (detected once); {@code automatic multiple languages} none with {@code code_switching} —; {@code endpointing} (in
 * seconds, Gladia's unit); {@code audioEnhancer} and {@code speechThreshold} as {@code pre_processing};
 * {@code keywords} (their text, a {@code :boost} suffix dropped) as the custom vocabulary;
 * {@code receivePartialTranscripts} (default on: the interims); {@code region} ({@code us-west}, {@code eu-west}) as
 * the session request's {@code region}. {@code confidenceThreshold}, {@code prosody}, {@code transcriptionHint} and
 * {@code smartFormat} have no field in Gladia's live API (v2): they are not sent.
 */
@Singleton
class GladiaTranscribers implements TranscriberProvider {

    static final String PROVIDER = "gladia";
    static final String DEFAULT_URL = "https://api.gladia.io";

    private final ProviderClients clients;

    GladiaTranscribers(ProviderClients clients) {
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
        String url = ProviderClients.httpUrl(clients.url(PROVIDER, "VOICE_GLADIA_URL", DEFAULT_URL)) + "/v2/live";
        if (raw.path("region").isTextual() && !raw.path("region").asText().isBlank()) {
            url += "?region=" + URLEncoder.encode(raw.path("region").asText(), StandardCharsets.UTF_8);
        }
        return GladiaTranscriber.open(context, clients, url, credential.apiKey(),
                init(settings, raw, format).toString(), format, listener);
    }

    private ObjectNode init(TranscriberSettings settings, JsonNode raw, AudioFormat format) {
        boolean mulaw = format == AudioFormat.ULAW_8K;
        ObjectNode init = clients.json().createObjectNode()
                .put("encoding", mulaw ? "wav/ulaw" : "wav/pcm")
                .put("bit_depth", mulaw ? 8 : 16)
                .put("sample_rate", format.sampleRate())
                .put("channels", 1);
        if (settings.model() != null && !settings.model().isBlank()) {
            init.put("model", settings.model());
        }
        if (raw.path("endpointing").isNumber()) {
            init.set("endpointing", raw.path("endpointing"));
        }
        ObjectNode languages = languageConfig(settings, raw);
        if (languages != null) {
            init.set("language_config", languages);
        }
        ObjectNode preProcessing = clients.json().createObjectNode();
        if (raw.path("audioEnhancer").isBoolean()) {
            preProcessing.put("audio_enhancer", raw.path("audioEnhancer").asBoolean());
        }
        if (raw.path("speechThreshold").isNumber()) {
            preProcessing.set("speech_threshold", raw.path("speechThreshold"));
        }
        if (!preProcessing.isEmpty()) {
            init.set("pre_processing", preProcessing);
        }
        if (!settings.keywords().isEmpty()) {
            ArrayNode vocabulary = init.putObject("realtime_processing").put("custom_vocabulary", true)
                    .putObject("custom_vocabulary_config").putArray("vocabulary");
            settings.keywords().forEach(keyword -> vocabulary.add(keyword.replaceAll(":-?[0-9.]+$", "")));
        }
        init.putObject("messages_config")
                .put("receive_partial_transcripts", raw.path("receivePartialTranscripts").asBoolean(true))
                .put("receive_final_transcripts", true)
                .put("receive_speech_events", true)
                .put("receive_acknowledgments", true)
                .put("receive_errors", true)
                .put("receive_lifecycle_events", false);
        return init;
    }

    private ObjectNode languageConfig(TranscriberSettings settings, JsonNode raw) {
        String behaviour = raw.path("languageBehaviour").asText("");
        String language = raw.path("languages").isTextual() && !raw.path("languages").asText().isBlank()
                ? raw.path("languages").asText() : settings.language();
        ObjectNode config = clients.json().createObjectNode();
        switch (behaviour) {
            case "automatic single language" -> config.put("code_switching", false).putArray("languages");
            case "automatic multiple languages" -> config.put("code_switching", true).putArray("languages");
            default -> {
                if (language == null || language.isBlank()) {
                    return null;
                }
                config.putArray("languages").add(language);
            }
        }
        return config;
    }
}
