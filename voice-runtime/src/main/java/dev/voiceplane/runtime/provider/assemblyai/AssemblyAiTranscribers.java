package dev.voiceplane.runtime.provider.assemblyai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
 * {@code transcriber.provider: assembly-ai}: Universal-Streaming v3 ({@link AssemblyAiTranscriber}) at
 * {@code VOICE_ASSEMBLYAI_URL} ({@value #DEFAULT_URL}), with the organisation's {@code assembly-ai} key.
 *
 * <p>What the assistant says is sent as AssemblyAI takes it: {@code speechModel} as {@code speech_model} (else, when
 * {@code language} is {@code multi} or another language than English, {@code universal-streaming-multilingual}, else
 * {@code universal-streaming-english}); a multilingual model gets {@code language_detection=true}; {@code formatTurns}
 * (default on) as {@code format_turns}; {@code keytermsPrompt} and {@code wordBoost} together as
 * {@code keyterms_prompt}; {@code endOfTurnConfidenceThreshold}, {@code minEndOfTurnSilenceWhenConfident}
 * ({@code min_turn_silence}) and {@code maxTurnSilence} as they are. {@code transcriber.model} names the speech model
 * of an assistant frozen before {@code speechModel} existed.
 */
@Singleton
class AssemblyAiTranscribers implements TranscriberProvider {

    static final String PROVIDER = "assembly-ai";
    static final String DEFAULT_URL = "wss://streaming.assemblyai.com";
    static final String MULTILINGUAL = "universal-streaming-multilingual";
    static final String ENGLISH = "universal-streaming-english";

    private final ProviderClients clients;

    AssemblyAiTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(TranscriberSettings settings) {
        JsonNode keyterms = settings.raw().path("keytermsPrompt");
        if (!keyterms.isMissingNode() && !keyterms.isNull() && !keyterms.isArray()) {
            return Optional.of("needs transcriber.keytermsPrompt as a list of words");
        }
        return Optional.empty();
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        String base = ProviderClients.webSocketUrl(clients.url(PROVIDER, "VOICE_ASSEMBLYAI_URL", DEFAULT_URL));
        return AssemblyAiTranscriber.open(context, clients.webSockets(), url(base, settings, format),
                credential.apiKey(), format, formatTurns(settings), listener, clients.json(),
                clients.deadlines().transcriberMillis());
    }

    static boolean formatTurns(TranscriberSettings settings) {
        return settings.raw().path("formatTurns").asBoolean(true);
    }

    static String url(String base, TranscriberSettings settings, AudioFormat format) {
        JsonNode raw = settings.raw();
        StringBuilder url = new StringBuilder(base).append("/v3/ws?");
        url.append(format == AudioFormat.ULAW_8K ? "sample_rate=8000&encoding=pcm_mulaw"
                : "sample_rate=16000&encoding=pcm_s16le");
        url.append("&format_turns=").append(formatTurns(settings));
        String model = raw.path("speechModel").isTextual() ? raw.path("speechModel").asText() : settings.model();
        String language = settings.language();
        if (model == null || model.isBlank()) {
            model = language != null && !language.isBlank()
                    && !language.toLowerCase(java.util.Locale.ROOT).startsWith("en") ? MULTILINGUAL : ENGLISH;
        }
        url.append("&speech_model=").append(encode(model));
        if (model.contains("multilingual")) {
            url.append("&language_detection=true");
        }
        ArrayNode keyterms = JsonNodeFactory.instance.arrayNode();
        for (String field : List.of("keytermsPrompt", "wordBoost")) {
            raw.path(field).forEach(term -> {
                if (term.isTextual() && !term.asText().isBlank()) {
                    keyterms.add(term.asText());
                }
            });
        }
        if (!keyterms.isEmpty()) {
            url.append("&keyterms_prompt=").append(encode(keyterms.toString()));
        }
        number(url, raw, "endOfTurnConfidenceThreshold", "end_of_turn_confidence_threshold");
        number(url, raw, "minEndOfTurnSilenceWhenConfident", "min_turn_silence");
        number(url, raw, "maxTurnSilence", "max_turn_silence");
        return url.toString();
    }

    private static void number(StringBuilder url, JsonNode raw, String field, String parameter) {
        JsonNode value = raw.path(field);
        if (value.isNumber()) {
            url.append('&').append(parameter).append('=').append(value.asText());
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
