package dev.voiceplane.contracts.catalog;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
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

    private RealtimeModels() {
    }

    /** Whether {@code provider}'s {@code model} is a speech-to-speech model. */
    public static boolean realtime(String provider, String model) {
        return "openai".equals(Providers.canonical(provider)) && model != null && OPENAI.contains(model);
    }

    /** The voices of {@code provider}'s realtime models (empty: none known). */
    public static Set<String> voices(String provider) {
        return "openai".equals(Providers.canonical(provider)) ? OPENAI_VOICES : Set.of();
    }

    private static Set<String> ordered(String... values) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(List.of(values)));
    }
}
