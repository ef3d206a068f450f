package dev.voiceplane.contracts.catalog;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The enumerations of provider settings as the hosted platform's published TypeScript SDK has them
 * ({@code VapiAI/server-sdk-typescript}, {@code src/api/types}, commit 7ec0a68 of 2026-06-25), in the SDK's order: the
 * values a provider setting is checked against (docs/assistants-and-squads.md, "Provider settings"). Each constant
 * names the SDK type it was copied from. Copied, not generated at build time, so that a new SDK release changes
 * what is accepted only through a reviewed change here.
 */
public final class SdkValues {

    /** {@code CartesiaVoiceModel}. */
    public static final Set<String> CARTESIA_VOICE_MODEL = of(
            "sonic-3", "sonic-3-2026-01-12", "sonic-3-2025-10-27", "sonic-2", "sonic-2-2025-06-11", "sonic-english",
            "sonic-multilingual", "sonic-preview", "sonic");

    /** {@code CartesiaVoiceLanguage}. */
    public static final Set<String> CARTESIA_VOICE_LANGUAGE = of(
            "ar", "bg", "bn", "cs", "da", "de", "el", "en", "es", "fi", "fr", "gu", "he", "hi", "hr", "hu", "id",
            "it", "ja", "ka", "kn", "ko", "ml", "mr", "ms", "nl", "no", "pa", "pl", "pt", "ro", "ru", "sk", "sv",
            "ta", "te", "th", "tl", "tr", "uk", "vi", "zh");

    /** {@code CartesiaSpeedControlZero}. */
    public static final Set<String> CARTESIA_SPEED = of(
            "slowest", "slow", "normal", "fast", "fastest");

    /** {@code CartesiaExperimentalControlsEmotion}. */
    public static final Set<String> CARTESIA_EMOTION = of(
            "anger:lowest", "anger:low", "anger:high", "anger:highest", "positivity:lowest", "positivity:low",
            "positivity:high", "positivity:highest", "surprise:lowest", "surprise:low", "surprise:high",
            "surprise:highest", "sadness:lowest", "sadness:low", "sadness:high", "sadness:highest",
            "curiosity:lowest", "curiosity:low", "curiosity:high", "curiosity:highest");

    /** {@code DeepgramVoiceModel}. */
    public static final Set<String> DEEPGRAM_VOICE_MODEL = of(
            "aura", "aura-2");

    /** {@code ElevenLabsVoiceModel}. */
    public static final Set<String> ELEVENLABS_VOICE_MODEL = of(
            "eleven_multilingual_v2", "eleven_turbo_v2", "eleven_turbo_v2_5", "eleven_flash_v2", "eleven_flash_v2_5",
            "eleven_monolingual_v1", "eleven_v3");

    /** {@code HumeVoiceModel}. */
    public static final Set<String> HUME_VOICE_MODEL = of(
            "octave", "octave2");

    /** {@code InworldVoiceModel}. */
    public static final Set<String> INWORLD_VOICE_MODEL = of(
            "inworld-tts-1");

    /** {@code LmntVoiceLanguage}. */
    public static final Set<String> LMNT_VOICE_LANGUAGE = of(
            "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh", "bi",
            "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da", "de", "dv",
            "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr", "fy", "ga", "gd",
            "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz", "ia", "id", "ie", "ig",
            "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko",
            "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln", "lo", "lt", "lu", "lv", "mg", "mh",
            "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr",
            "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru",
            "rw", "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su",
            "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug",
            "uk", "ur", "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi", "yue", "yo", "za", "zh", "zu", "auto");

    /** {@code MinimaxVoiceModel}. */
    public static final Set<String> MINIMAX_VOICE_MODEL = of(
            "speech-02-hd", "speech-02-turbo", "speech-2.5-turbo-preview");

    /** {@code NeuphonicVoiceModel}. */
    public static final Set<String> NEUPHONIC_VOICE_MODEL = of(
            "neu_hq", "neu_fast");

    /** {@code PlayHtVoiceModel}. */
    public static final Set<String> PLAYHT_VOICE_MODEL = of(
            "PlayHT2.0", "PlayHT2.0-turbo", "Play3.0-mini", "PlayDialog");

    /** {@code PlayHtVoiceLanguage}. */
    public static final Set<String> PLAYHT_VOICE_LANGUAGE = of(
            "afrikaans", "albanian", "amharic", "arabic", "bengali", "bulgarian", "catalan", "croatian", "czech",
            "danish", "dutch", "english", "french", "galician", "german", "greek", "hebrew", "hindi", "hungarian",
            "indonesian", "italian", "japanese", "korean", "malay", "mandarin", "polish", "portuguese", "russian",
            "serbian", "spanish", "swedish", "tagalog", "thai", "turkish", "ukrainian", "urdu", "xhosa");

    /** {@code RimeAiVoiceModel}. */
    public static final Set<String> RIME_AI_VOICE_MODEL = of(
            "arcana", "mistv2", "mist");

    /** {@code RimeAiVoiceLanguage}. */
    public static final Set<String> RIME_AI_VOICE_LANGUAGE = of(
            "en", "es", "de", "fr", "ar", "hi", "ja", "he", "pt", "ta", "si");

    /** {@code SesameVoiceModel}. */
    public static final Set<String> SESAME_VOICE_MODEL = of(
            "csm-1b");

    /** {@code SmallestAiVoiceModel}. */
    public static final Set<String> SMALLEST_AI_VOICE_MODEL = of(
            "lightning");

    /** {@code WellSaidVoiceModel}. */
    public static final Set<String> WELLSAID_VOICE_MODEL = of(
            "caruso", "legacy");

    /** {@code AssemblyAiTranscriberLanguage}. */
    public static final Set<String> ASSEMBLY_AI_LANGUAGE = of(
            "multi", "en");

    /** {@code AssemblyAiTranscriberSpeechModel}. */
    public static final Set<String> ASSEMBLY_AI_SPEECH_MODEL = of(
            "universal-streaming-english", "universal-streaming-multilingual");

    /** {@code AzureSpeechTranscriberLanguage}. */
    public static final Set<String> AZURE_TRANSCRIBER_LANGUAGE = of(
            "af-ZA", "am-ET", "ar-AE", "ar-BH", "ar-DZ", "ar-EG", "ar-IL", "ar-IQ", "ar-JO", "ar-KW", "ar-LB",
            "ar-LY", "ar-MA", "ar-OM", "ar-PS", "ar-QA", "ar-SA", "ar-SY", "ar-TN", "ar-YE", "az-AZ", "bg-BG",
            "bn-IN", "bs-BA", "ca-ES", "cs-CZ", "cy-GB", "da-DK", "de-AT", "de-CH", "de-DE", "el-GR", "en-AU",
            "en-CA", "en-GB", "en-GH", "en-HK", "en-IE", "en-IN", "en-KE", "en-NG", "en-NZ", "en-PH", "en-SG",
            "en-TZ", "en-US", "en-ZA", "es-AR", "es-BO", "es-CL", "es-CO", "es-CR", "es-CU", "es-DO", "es-EC",
            "es-ES", "es-GQ", "es-GT", "es-HN", "es-MX", "es-NI", "es-PA", "es-PE", "es-PR", "es-PY", "es-SV",
            "es-US", "es-UY", "es-VE", "et-EE", "eu-ES", "fa-IR", "fi-FI", "fil-PH", "fr-BE", "fr-CA", "fr-CH",
            "fr-FR", "ga-IE", "gl-ES", "gu-IN", "he-IL", "hi-IN", "hr-HR", "hu-HU", "hy-AM", "id-ID", "is-IS",
            "it-CH", "it-IT", "ja-JP", "jv-ID", "ka-GE", "kk-KZ", "km-KH", "kn-IN", "ko-KR", "lo-LA", "lt-LT",
            "lv-LV", "mk-MK", "ml-IN", "mn-MN", "mr-IN", "ms-MY", "mt-MT", "my-MM", "nb-NO", "ne-NP", "nl-BE",
            "nl-NL", "pa-IN", "pl-PL", "ps-AF", "pt-BR", "pt-PT", "ro-RO", "ru-RU", "si-LK", "sk-SK", "sl-SI",
            "so-SO", "sq-AL", "sr-RS", "sv-SE", "sw-KE", "sw-TZ", "ta-IN", "te-IN", "th-TH", "tr-TR", "uk-UA",
            "ur-IN", "uz-UZ", "vi-VN", "wuu-CN", "yue-CN", "zh-CN", "zh-CN-shandong", "zh-CN-sichuan", "zh-HK",
            "zh-TW", "zu-ZA");

    /** {@code AzureSpeechTranscriberSegmentationStrategy}. */
    public static final Set<String> AZURE_SEGMENTATION_STRATEGY = of(
            "Default", "Time", "Semantic");

    /** {@code CartesiaTranscriberModel}. */
    public static final Set<String> CARTESIA_TRANSCRIBER_MODEL = of(
            "ink-whisper");

    /**
     * The ISO 639-1 codes and {@code yue}: the SDK's {@code CartesiaTranscriberLanguage} and
     * {@code ElevenLabsTranscriberLanguage} are this same list.
     */
    private static final Set<String> ISO_639_1_AND_YUE = of(
            "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh", "bi",
            "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da", "de", "dv",
            "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr", "fy", "ga", "gd",
            "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz", "ia", "id", "ie", "ig",
            "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko",
            "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln", "lo", "lt", "lu", "lv", "mg", "mh",
            "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr",
            "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru",
            "rw", "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su",
            "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug",
            "uk", "ur", "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi", "yue", "yo", "za", "zh", "zu");

    /** {@code CartesiaTranscriberLanguage}. */
    public static final Set<String> CARTESIA_TRANSCRIBER_LANGUAGE = ISO_639_1_AND_YUE;

    /** {@code ElevenLabsTranscriberModel}. */
    public static final Set<String> ELEVENLABS_TRANSCRIBER_MODEL = of(
            "scribe_v1", "scribe_v2", "scribe_v2_realtime");

    /** {@code ElevenLabsTranscriberLanguage}. */
    public static final Set<String> ELEVENLABS_TRANSCRIBER_LANGUAGE = ISO_639_1_AND_YUE;

    /** {@code GladiaTranscriberLanguageBehaviour}. */
    public static final Set<String> GLADIA_LANGUAGE_BEHAVIOUR = of(
            "manual", "automatic single language", "automatic multiple languages");

    /** {@code GladiaTranscriberLanguages}. */
    public static final Set<String> GLADIA_LANGUAGES = of(
            "af", "sq", "am", "ar", "hy", "as", "az", "ba", "eu", "be", "bn", "bs", "br", "bg", "ca", "zh", "hr",
            "cs", "da", "nl", "en", "et", "fo", "fi", "fr", "gl", "ka", "de", "el", "gu", "ht", "ha", "haw", "he",
            "hi", "hu", "is", "id", "it", "ja", "jv", "kn", "kk", "km", "ko", "lo", "la", "lv", "ln", "lt", "lb",
            "mk", "mg", "ms", "ml", "mt", "mi", "mr", "mn", "my", "ne", "no", "nn", "oc", "ps", "fa", "pl", "pt",
            "pa", "ro", "ru", "sa", "sr", "sn", "sd", "si", "sk", "sl", "so", "es", "su", "sw", "sv", "tl", "tg",
            "ta", "tt", "te", "th", "bo", "tr", "tk", "uk", "ur", "uz", "vi", "cy", "yi", "yo");

    /** {@code GladiaTranscriberRegion}. */
    public static final Set<String> GLADIA_REGION = of(
            "us-west", "eu-west");

    /** {@code GoogleTranscriberModel}. */
    public static final Set<String> GOOGLE_TRANSCRIBER_MODEL = of(
            "gemini-3-flash-preview", "gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite",
            "gemini-2.0-flash-thinking-exp", "gemini-2.0-pro-exp-02-05", "gemini-2.0-flash", "gemini-2.0-flash-lite",
            "gemini-2.0-flash-exp", "gemini-2.0-flash-realtime-exp", "gemini-1.5-flash", "gemini-1.5-flash-002",
            "gemini-1.5-pro", "gemini-1.5-pro-002", "gemini-1.0-pro");

    /** {@code GoogleTranscriberLanguage}. */
    public static final Set<String> GOOGLE_TRANSCRIBER_LANGUAGE = of(
            "Multilingual", "Arabic", "Bengali", "Bulgarian", "Chinese", "Croatian", "Czech", "Danish", "Dutch",
            "English", "Estonian", "Finnish", "French", "German", "Greek", "Hebrew", "Hindi", "Hungarian",
            "Indonesian", "Italian", "Japanese", "Korean", "Latvian", "Lithuanian", "Norwegian", "Polish",
            "Portuguese", "Romanian", "Russian", "Serbian", "Slovak", "Slovenian", "Spanish", "Swahili", "Swedish",
            "Thai", "Turkish", "Ukrainian", "Vietnamese");

    /** {@code OpenAiTranscriberLanguage}. */
    public static final Set<String> OPENAI_TRANSCRIBER_LANGUAGE = of(
            "af", "ar", "hy", "az", "be", "bs", "bg", "ca", "zh", "hr", "cs", "da", "nl", "en", "et", "fi", "fr",
            "gl", "de", "el", "he", "hi", "hu", "is", "id", "it", "ja", "kn", "kk", "ko", "lv", "lt", "mk", "ms",
            "mr", "mi", "ne", "no", "fa", "pl", "pt", "ro", "ru", "sr", "sk", "sl", "es", "sw", "sv", "tl", "ta",
            "th", "tr", "uk", "ur", "vi", "cy");

    /** {@code SonioxTranscriberModel}. */
    public static final Set<String> SONIOX_TRANSCRIBER_MODEL = of(
            "stt-rt-v4");

    /** {@code SonioxTranscriberLanguage}. */
    public static final Set<String> SONIOX_TRANSCRIBER_LANGUAGE = of(
            "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh", "bi",
            "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da", "de", "dv",
            "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr", "fy", "ga", "gd",
            "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz", "ia", "id", "ie", "ig",
            "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj", "kk", "kl", "km", "kn", "ko",
            "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln", "lo", "lt", "lu", "lv", "mg", "mh",
            "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb", "nd", "ne", "ng", "nl", "nn", "no", "nr",
            "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi", "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru",
            "rw", "sa", "sc", "sd", "se", "sg", "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su",
            "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug",
            "uk", "ur", "uz", "ve", "vi", "vo", "wa", "wo", "xh", "yi", "yue", "yo", "za", "zh", "zu");

    /** {@code SpeechmaticsTranscriberModel}. */
    public static final Set<String> SPEECHMATICS_TRANSCRIBER_MODEL = of(
            "default");

    /** {@code SpeechmaticsTranscriberLanguage}. */
    public static final Set<String> SPEECHMATICS_TRANSCRIBER_LANGUAGE = of(
            "auto", "ar", "ar_en", "ba", "eu", "be", "bn", "bg", "yue", "ca", "hr", "cs", "da", "nl", "en", "eo",
            "et", "fi", "fr", "gl", "de", "el", "he", "hi", "hu", "id", "ia", "ga", "it", "ja", "ko", "lv", "lt",
            "ms", "en_ms", "mt", "cmn", "cmn_en", "mr", "mn", "no", "fa", "pl", "pt", "ro", "ru", "sk", "sl", "es",
            "en_es", "sw", "sv", "tl", "ta", "en_ta", "th", "tr", "uk", "ur", "ug", "vi", "cy");

    /** {@code SpeechmaticsTranscriberOperatingPoint}. */
    public static final Set<String> SPEECHMATICS_OPERATING_POINT = of(
            "standard", "enhanced");

    /** {@code SpeechmaticsTranscriberRegion}. */
    public static final Set<String> SPEECHMATICS_REGION = of(
            "eu", "us");

    /** {@code SpeechmaticsTranscriberNumeralStyle}. */
    public static final Set<String> SPEECHMATICS_NUMERAL_STYLE = of(
            "written", "spoken");

    /** {@code AnthropicThinkingConfigType}. */
    public static final Set<String> ANTHROPIC_THINKING_TYPE = of(
            "enabled");

    private SdkValues() {
    }

    private static Set<String> of(String... values) {
        Set<String> set = new LinkedHashSet<>(List.of(values));
        if (set.size() != values.length) {
            throw new IllegalArgumentException("a value is listed twice");
        }
        return Collections.unmodifiableSet(set);
    }
}
