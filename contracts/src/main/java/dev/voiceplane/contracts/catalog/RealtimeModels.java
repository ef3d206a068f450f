package dev.voiceplane.contracts.catalog;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The speech-to-speech models (docs/voice-runtime.md, "Realtime models"): a {@code model.model} named here, under its
 * {@code model.provider}, is run by the voice runtime's realtime engine (one socket hears the caller and speaks the
 * reply), so the assistant needs no {@code transcriber} and no {@code voice}; {@code voice.voiceId}, when given, is
 * one of the model's own voices.
 */
public final class RealtimeModels {

    /**
     * OpenAI's Realtime models: the aliases, and the dated snapshots OpenAI's model list and the published SDK's
     * {@code openai} model enumeration name (2025-08-28 GA, the mini snapshots, the 4o previews).
     */
    public static final Set<String> OPENAI = ordered(
            "gpt-realtime", "gpt-realtime-2025-08-28",
            "gpt-realtime-mini", "gpt-realtime-mini-2025-10-06", "gpt-realtime-mini-2025-12-15",
            "gpt-4o-realtime-preview", "gpt-4o-realtime-preview-2024-10-01", "gpt-4o-realtime-preview-2024-12-17",
            "gpt-4o-realtime-preview-2025-06-03",
            "gpt-4o-mini-realtime-preview", "gpt-4o-mini-realtime-preview-2024-12-17");

    /** The voices of OpenAI's Realtime models ({@code session.audio.output.voice}). */
    public static final Set<String> OPENAI_VOICES = ordered("alloy", "ash", "ballad", "coral", "echo", "sage",
            "shimmer", "verse", "marin", "cedar");

    /**
     * Google's Gemini Live models ({@code BidiGenerateContent}): the half-cascade ones (Gemini 2.0 Flash Live, the
     * Gemini 2.5 Flash Live preview, and {@code gemini-live-2.5-flash}, the name Google gives its generally available
     * release) and the native-audio ones (the 2.5 Flash dialog previews of May 2025, their September and December
     * 2025 snapshots), as Google's model list and Live API guide name them. Any other {@code google} model is a chat
     * model.
     */
    public static final Set<String> GOOGLE = ordered(
            "gemini-2.0-flash-live-001", "gemini-live-2.5-flash-preview", "gemini-live-2.5-flash",
            "gemini-2.5-flash-preview-native-audio-dialog", "gemini-2.5-flash-exp-native-audio-thinking-dialog",
            "gemini-2.5-flash-native-audio-preview-09-2025", "gemini-2.5-flash-native-audio-preview-12-2025");

    /**
     * The voices of the Gemini Live models ({@code speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName}): the
     * eight every Live model has (Puck, Charon, Kore, Fenrir, Aoede, Leda, Orus, Zephyr), then the others of the 30
     * the native-audio models speak with (Google's speech-generation voice list).
     */
    public static final Set<String> GOOGLE_VOICES = ordered("Puck", "Charon", "Kore", "Fenrir", "Aoede", "Leda",
            "Orus", "Zephyr", "Callirrhoe", "Autonoe", "Enceladus", "Iapetus", "Umbriel", "Algieba", "Despina",
            "Erinome", "Algenib", "Rasalgethi", "Laomedeia", "Achernar", "Alnilam", "Schedar", "Gacrux",
            "Pulcherrima", "Achird", "Zubenelgenubi", "Vindemiatrix", "Sadachbia", "Sadaltager", "Sulafat");

    private static final Map<String, Set<String>> MODELS = Map.of("openai", OPENAI, "google", GOOGLE);
    private static final Map<String, Set<String>> VOICES = Map.of("openai", OPENAI_VOICES, "google", GOOGLE_VOICES);

    private RealtimeModels() {
    }

    /** Whether {@code provider}'s {@code model} is a speech-to-speech model. */
    public static boolean realtime(String provider, String model) {
        String canonical = Providers.canonical(provider);
        return canonical != null && model != null && MODELS.getOrDefault(canonical, Set.of()).contains(model);
    }

    /** The voices of {@code provider}'s realtime models (empty: none known). */
    public static Set<String> voices(String provider) {
        String canonical = Providers.canonical(provider);
        return canonical == null ? Set.of() : VOICES.getOrDefault(canonical, Set.of());
    }

    private static Set<String> ordered(String... values) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(List.of(values)));
    }
}
