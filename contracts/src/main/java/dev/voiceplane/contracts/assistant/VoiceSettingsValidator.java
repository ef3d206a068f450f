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
import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The {@link ProviderSettings} of a {@link Voice}. */
public class VoiceSettingsValidator implements ConstraintValidator<ProviderSettings, Voice> {

    static final String CUSTOM_VOICE = "custom-voice";

    private static final Set<String> ON_OFF = new LinkedHashSet<>(List.of("0", "1"));

    /** Who takes which setting; the era's fields and {@code cachingEnabled} are every voice's, so not listed. */
    static final SettingTable<Voice> SETTINGS = new SettingTable<Voice>("voices")
            .setting("model", Voice::model,
                    by("cartesia", Rule.oneOf(SdkValues.CARTESIA_VOICE_MODEL)),
                    by("deepgram", Rule.oneOf(SdkValues.DEEPGRAM_VOICE_MODEL)),
                    by("11labs", Rule.oneOf(SdkValues.ELEVENLABS_VOICE_MODEL)),
                    by("hume", Rule.oneOf(SdkValues.HUME_VOICE_MODEL)),
                    by("inworld", Rule.oneOf(SdkValues.INWORLD_VOICE_MODEL)),
                    by("minimax", Rule.oneOf(SdkValues.MINIMAX_VOICE_MODEL)),
                    by("neuphonic", Rule.oneOf(SdkValues.NEUPHONIC_VOICE_MODEL)),
                    // OpenAI-compatible speech servers name their own models (as model.model is any string).
                    by("openai", Rule.ANY),
                    by("playht", Rule.oneOf(SdkValues.PLAYHT_VOICE_MODEL)),
                    by("rime-ai", Rule.oneOf(SdkValues.RIME_AI_VOICE_MODEL)),
                    by("sesame", Rule.oneOf(SdkValues.SESAME_VOICE_MODEL).andRequired()),
                    by("smallest-ai", Rule.oneOf(SdkValues.SMALLEST_AI_VOICE_MODEL)),
                    by("wellsaid", Rule.oneOf(SdkValues.WELLSAID_VOICE_MODEL)))
            .setting("language", Voice::language,
                    by("cartesia", Rule.oneOf(SdkValues.CARTESIA_VOICE_LANGUAGE)),
                    by("11labs", Rule.ANY),
                    by("lmnt", Rule.oneOf(SdkValues.LMNT_VOICE_LANGUAGE)),
                    by("neuphonic", Rule.ANY),
                    by("playht", Rule.oneOf(SdkValues.PLAYHT_VOICE_LANGUAGE)),
                    by("rime-ai", Rule.oneOf(SdkValues.RIME_AI_VOICE_LANGUAGE)))
            .setting("experimentalControls", Voice::experimentalControls, by("cartesia", Rule.ANY))
            .setting("generationConfig", Voice::generationConfig, by("cartesia", Rule.ANY))
            .setting("pronunciationDictId", Voice::pronunciationDictId, by("cartesia", Rule.ANY))
            .setting("mipOptOut", Voice::mipOptOut, by("deepgram", Rule.ANY))
            .setting("stability", Voice::stability, by("11labs", Rule.ANY))
            .setting("similarityBoost", Voice::similarityBoost, by("11labs", Rule.ANY))
            .setting("style", Voice::style, by("11labs", Rule.ANY))
            .setting("useSpeakerBoost", Voice::useSpeakerBoost, by("11labs", Rule.ANY))
            .setting("optimizeStreamingLatency", Voice::optimizeStreamingLatency, by("11labs", Rule.ANY))
            .setting("enableSsmlParsing", Voice::enableSsmlParsing, by("11labs", Rule.ANY))
            .setting("autoMode", Voice::autoMode, by("11labs", Rule.ANY))
            .setting("instructions", Voice::instructions, by("openai", Rule.ANY))
            .setting("pauseBetweenBrackets", Voice::pauseBetweenBrackets, by("rime-ai", Rule.ANY))
            .setting("phonemizeBetweenBrackets", Voice::phonemizeBetweenBrackets, by("rime-ai", Rule.ANY))
            .setting("reduceLatency", Voice::reduceLatency, by("rime-ai", Rule.ANY))
            .setting("inlineSpeedAlpha", Voice::inlineSpeedAlpha, by("rime-ai", Rule.ANY))
            .setting("server", Voice::server, by(CUSTOM_VOICE, Rule.REQUIRED));

    @Override
    public boolean isValid(Voice voice, ConstraintValidatorContext context) {
        if (voice == null) {
            return true;
        }
        context.disableDefaultConstraintViolation();
        String provider = Providers.canonical(voice.provider());
        boolean valid = true;
        // Every voice but a custom one names its voice (the SDK's CustomVoice alone has voiceId optional).
        if (voice.voiceId() == null && !CUSTOM_VOICE.equals(provider)) {
            Messages.onProperty(context, "voiceId", "should not be null or undefined");
            valid = false;
        }
        if (provider == null || !ProviderCatalogue.VOICE.accepts(provider)) {
            return valid; // a missing or unknown provider is reported on its own
        }
        valid &= SETTINGS.check(voice, provider, context);
        if (provider.equals("cartesia")) {
            valid &= cartesia(voice, context);
        }
        return valid;
    }

    private static boolean cartesia(Voice voice, ConstraintValidatorContext context) {
        boolean valid = true;
        CartesiaExperimentalControls controls = voice.experimentalControls();
        if (controls != null && controls.speed() != null) {
            JsonNode speed = controls.speed();
            if (speed.isTextual() && !SdkValues.CARTESIA_SPEED.contains(speed.asText())) {
                Messages.onProperty(context, "experimentalControls.speed",
                        Messages.mustBeOneOf(SdkValues.CARTESIA_SPEED) + ", or a number");
                valid = false;
            } else if (!speed.isTextual() && !speed.isNumber()) {
                Messages.onProperty(context, "experimentalControls.speed", "must be a string or a number");
                valid = false;
            }
        }
        if (controls != null && controls.emotion() != null
                && !SdkValues.CARTESIA_EMOTION.contains(controls.emotion())) {
            Messages.onProperty(context, "experimentalControls.emotion", Messages.mustBeOneOf(SdkValues.CARTESIA_EMOTION));
            valid = false;
        }
        CartesiaGenerationConfig generation = voice.generationConfig();
        BigDecimal accent = generation == null || generation.experimental() == null ? null
                : generation.experimental().accentLocalization();
        if (accent != null && accent.compareTo(BigDecimal.ZERO) != 0 && accent.compareTo(BigDecimal.ONE) != 0) {
            Messages.onProperty(context, "generationConfig.experimental.accentLocalization", Messages.mustBeOneOf(ON_OFF));
            valid = false;
        }
        return valid;
    }
}
