package dev.voiceplane.contracts.assistant;

import static dev.voiceplane.contracts.assistant.SettingTable.by;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.assistant.SettingTable.Rule;
import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.contracts.catalog.SdkValues;
import dev.voiceplane.kit.validation.Messages;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.Iterator;
import java.util.List;

/** The {@link ProviderSettings} of a {@link Transcriber}. */
public class TranscriberSettingsValidator implements ConstraintValidator<ProviderSettings, Transcriber> {

    /** The era's transcribers, which took any {@code model} and {@code language}, {@code smartFormat} and {@code keywords}. */
    static final List<String> ERA = List.of("deepgram", "gladia", "talkscriber");

    /** The most keyterms AssemblyAI takes (the SDK's {@code keytermsPrompt}: up to 100, each up to 50 characters). */
    static final int MAX_KEYTERMS = 100;

    static final SettingTable<Transcriber> SETTINGS = new SettingTable<Transcriber>("transcribers")
            .setting("model", Transcriber::model,
                    by(ERA, Rule.ANY),
                    by("cartesia", Rule.oneOf(SdkValues.CARTESIA_TRANSCRIBER_MODEL)),
                    by("11labs", Rule.oneOf(SdkValues.ELEVENLABS_TRANSCRIBER_MODEL)),
                    by("google", Rule.oneOf(SdkValues.GOOGLE_TRANSCRIBER_MODEL)),
                    // OpenAI-compatible transcription servers (a self-hosted Whisper) name their own models.
                    by("openai", Rule.REQUIRED),
                    by("soniox", Rule.oneOf(SdkValues.SONIOX_TRANSCRIBER_MODEL)),
                    by("speechmatics", Rule.oneOf(SdkValues.SPEECHMATICS_TRANSCRIBER_MODEL)))
            .setting("language", Transcriber::language,
                    by(ERA, Rule.ANY),
                    by("assembly-ai", Rule.oneOf(SdkValues.ASSEMBLY_AI_LANGUAGE)),
                    by("azure", Rule.oneOf(SdkValues.AZURE_TRANSCRIBER_LANGUAGE)),
                    by("cartesia", Rule.oneOf(SdkValues.CARTESIA_TRANSCRIBER_LANGUAGE)),
                    by("11labs", Rule.oneOf(SdkValues.ELEVENLABS_TRANSCRIBER_LANGUAGE)),
                    by("google", Rule.oneOf(SdkValues.GOOGLE_TRANSCRIBER_LANGUAGE)),
                    by("openai", Rule.oneOf(SdkValues.OPENAI_TRANSCRIBER_LANGUAGE)),
                    by("soniox", Rule.oneOf(SdkValues.SONIOX_TRANSCRIBER_LANGUAGE)),
                    by("speechmatics", Rule.oneOf(SdkValues.SPEECHMATICS_TRANSCRIBER_LANGUAGE)))
            .setting("smartFormat", Transcriber::smartFormat, by(ERA, Rule.ANY))
            .setting("keywords", Transcriber::keywords, by(ERA, Rule.ANY))
            .setting("server", Transcriber::server, by("custom-transcriber", Rule.REQUIRED))
            .setting("mipOptOut", Transcriber::mipOptOut, by("deepgram", Rule.ANY))
            .setting("numerals", Transcriber::numerals, by("deepgram", Rule.ANY))
            .setting("profanityFilter", Transcriber::profanityFilter, by("deepgram", Rule.ANY))
            .setting("confidenceThreshold", Transcriber::confidenceThreshold,
                    by(List.of("assembly-ai", "deepgram", "gladia"), Rule.ANY),
                    by("11labs", Rule.range("0.1", "0.9")))
            .setting("eagerEotThreshold", Transcriber::eagerEotThreshold, by("deepgram", Rule.ANY))
            .setting("eotThreshold", Transcriber::eotThreshold, by("deepgram", Rule.ANY))
            .setting("eotTimeoutMs", Transcriber::eotTimeoutMs, by("deepgram", Rule.ANY))
            .setting("keyterm", Transcriber::keyterm, by("deepgram", Rule.ANY))
            .setting("endpointing", Transcriber::endpointing, by(List.of("deepgram", "gladia"), Rule.ANY))
            .setting("formatTurns", Transcriber::formatTurns, by("assembly-ai", Rule.ANY))
            .setting("endOfTurnConfidenceThreshold", Transcriber::endOfTurnConfidenceThreshold,
                    by("assembly-ai", Rule.ANY))
            .setting("minEndOfTurnSilenceWhenConfident", Transcriber::minEndOfTurnSilenceWhenConfident,
                    by("assembly-ai", Rule.ANY))
            .setting("wordFinalizationMaxWaitTime", Transcriber::wordFinalizationMaxWaitTime, by("assembly-ai", Rule.ANY))
            .setting("maxTurnSilence", Transcriber::maxTurnSilence, by("assembly-ai", Rule.ANY))
            .setting("vadAssistedEndpointingEnabled", Transcriber::vadAssistedEndpointingEnabled,
                    by("assembly-ai", Rule.ANY))
            .setting("speechModel", Transcriber::speechModel,
                    by("assembly-ai", Rule.oneOf(SdkValues.ASSEMBLY_AI_SPEECH_MODEL)))
            .setting("wordBoost", Transcriber::wordBoost, by("assembly-ai", Rule.ANY))
            .setting("keytermsPrompt", Transcriber::keytermsPrompt, by("assembly-ai", Rule.ANY))
            .setting("endUtteranceSilenceThreshold", Transcriber::endUtteranceSilenceThreshold,
                    by("assembly-ai", Rule.ANY))
            .setting("disablePartialTranscripts", Transcriber::disablePartialTranscripts, by("assembly-ai", Rule.ANY))
            .setting("segmentationStrategy", Transcriber::segmentationStrategy,
                    by("azure", Rule.oneOf(SdkValues.AZURE_SEGMENTATION_STRATEGY)))
            .setting("segmentationSilenceTimeoutMs", Transcriber::segmentationSilenceTimeoutMs, by("azure", Rule.ANY))
            .setting("segmentationMaximumTimeMs", Transcriber::segmentationMaximumTimeMs, by("azure", Rule.ANY))
            .setting("silenceThresholdSeconds", Transcriber::silenceThresholdSeconds, by("11labs", Rule.ANY))
            .setting("minSpeechDurationMs", Transcriber::minSpeechDurationMs, by("11labs", Rule.ANY))
            .setting("minSilenceDurationMs", Transcriber::minSilenceDurationMs, by("11labs", Rule.ANY))
            .setting("languageBehaviour", Transcriber::languageBehaviour,
                    by("gladia", Rule.oneOf(SdkValues.GLADIA_LANGUAGE_BEHAVIOUR)))
            .setting("languages", Transcriber::languages, by("gladia", Rule.oneOf(SdkValues.GLADIA_LANGUAGES)))
            .setting("transcriptionHint", Transcriber::transcriptionHint, by("gladia", Rule.ANY))
            .setting("prosody", Transcriber::prosody, by("gladia", Rule.ANY))
            .setting("audioEnhancer", Transcriber::audioEnhancer, by("gladia", Rule.ANY))
            .setting("speechThreshold", Transcriber::speechThreshold, by("gladia", Rule.ANY))
            .setting("region", Transcriber::region,
                    by("gladia", Rule.oneOf(SdkValues.GLADIA_REGION)),
                    by("speechmatics", Rule.oneOf(SdkValues.SPEECHMATICS_REGION)))
            .setting("receivePartialTranscripts", Transcriber::receivePartialTranscripts, by("gladia", Rule.ANY))
            .setting("operatingPoint", Transcriber::operatingPoint,
                    by("speechmatics", Rule.oneOf(SdkValues.SPEECHMATICS_OPERATING_POINT)))
            .setting("enableDiarization", Transcriber::enableDiarization, by("speechmatics", Rule.ANY))
            .setting("maxDelay", Transcriber::maxDelay, by("speechmatics", Rule.ANY))
            .setting("customVocabulary", Transcriber::customVocabulary,
                    by(List.of("soniox", "speechmatics"), Rule.ANY))
            .setting("numeralStyle", Transcriber::numeralStyle,
                    by("speechmatics", Rule.oneOf(SdkValues.SPEECHMATICS_NUMERAL_STYLE)))
            .setting("endOfTurnSensitivity", Transcriber::endOfTurnSensitivity, by("speechmatics", Rule.ANY))
            .setting("removeDisfluencies", Transcriber::removeDisfluencies, by("speechmatics", Rule.ANY))
            .setting("minimumSpeechDuration", Transcriber::minimumSpeechDuration, by("speechmatics", Rule.ANY))
            .setting("languageHintsStrict", Transcriber::languageHintsStrict, by("soniox", Rule.ANY))
            .setting("maxEndpointDelayMs", Transcriber::maxEndpointDelayMs, by("soniox", Rule.ANY));

    @Override
    public boolean isValid(Transcriber transcriber, ConstraintValidatorContext context) {
        if (transcriber == null || transcriber.provider() == null
                || !ProviderCatalogue.TRANSCRIBER.accepts(transcriber.provider())) {
            return true; // a missing or unknown provider is reported on its own
        }
        context.disableDefaultConstraintViolation();
        String provider = Providers.canonical(transcriber.provider());
        boolean valid = SETTINGS.check(transcriber, provider, context);
        if (transcriber.keytermsPrompt() != null && transcriber.keytermsPrompt().size() > MAX_KEYTERMS) {
            Messages.onProperty(context, "keytermsPrompt", "must contain no more than " + MAX_KEYTERMS + " elements");
            valid = false;
        }
        if (transcriber.customVocabulary() != null && SETTINGS.providersOf("customVocabulary").contains(provider)) {
            valid &= vocabulary(transcriber.customVocabulary(), provider.equals("speechmatics"), context);
        }
        return valid;
    }

    /** Soniox takes words; Speechmatics objects of {@code content} (required) and {@code soundsLike} (words). */
    private static boolean vocabulary(List<JsonNode> entries, boolean objects, ConstraintValidatorContext context) {
        boolean valid = true;
        for (int i = 0; i < entries.size(); i++) {
            String path = "customVocabulary." + i;
            JsonNode entry = entries.get(i);
            String problem = null;
            if (entry == null || entry.isNull()) {
                problem = "should not be null or undefined";
            } else if (!objects && !entry.isTextual()) {
                problem = "must be a string";
            } else if (objects && !entry.isObject()) {
                problem = "must be an object";
            }
            if (problem != null) {
                Messages.onProperty(context, path, problem);
                valid = false;
                continue;
            }
            if (objects) {
                valid &= speechmaticsEntry(entry, path, context);
            }
        }
        return valid;
    }

    private static boolean speechmaticsEntry(JsonNode entry, String path, ConstraintValidatorContext context) {
        boolean valid = true;
        for (Iterator<String> names = entry.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("content") && !name.equals("soundsLike")) {
                // The kit's wording for an unknown property: "<path>.property <name> should not exist".
                Messages.onProperty(context, path + ".property " + name, "should not exist");
                valid = false;
            }
        }
        JsonNode content = entry.get("content");
        if (content == null || content.isNull()) {
            Messages.onProperty(context, path + ".content", "should not be null or undefined");
            valid = false;
        } else if (!content.isTextual()) {
            Messages.onProperty(context, path + ".content", "must be a string");
            valid = false;
        }
        JsonNode soundsLike = entry.get("soundsLike");
        if (soundsLike != null && !soundsLike.isArray()) {
            Messages.onProperty(context, path + ".soundsLike", "must be an array");
            valid = false;
        } else if (soundsLike != null) {
            for (int j = 0; j < soundsLike.size(); j++) {
                if (!soundsLike.get(j).isTextual()) {
                    Messages.onProperty(context, path + ".soundsLike." + j,
                            soundsLike.get(j).isNull() ? "should not be null or undefined" : "must be a string");
                    valid = false;
                }
            }
        }
        return valid;
    }
}
