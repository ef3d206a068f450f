package dev.voiceplane.contracts.call;

import java.util.Map;
import java.util.Optional;

/**
 * The kinds of a call's usage lines ({@link RuntimeEvent.UsageLine}), each with its one unit and the part of the
 * cost it goes into (docs/calls.md, "Rate card"): what the runtime reports and what call-service prices. Token kinds
 * do not overlap: a model's input tokens are the sum of its input kinds, its output tokens the sum of its output
 * kinds.
 */
public final class UsageKinds {

    public static final String SECONDS = "seconds";
    public static final String TOKENS = "tokens";
    public static final String CHARACTERS = "characters";

    /** Seconds of caller audio sent to a transcriber. */
    public static final String TRANSCRIPTION = "transcription";
    /** A chat model's input tokens not read from or written to a cache (or a realtime model's, not detailed). */
    public static final String PROMPT_TOKENS = "prompt-tokens";
    /** A chat model's input tokens read from the provider's prompt cache. */
    public static final String CACHED_PROMPT_TOKENS = "cached-prompt-tokens";
    /** A chat model's input tokens written to the provider's prompt cache (Anthropic's cache creation). */
    public static final String CACHE_WRITE_PROMPT_TOKENS = "cache-write-prompt-tokens";
    /** A chat model's output tokens (or a realtime model's, not detailed). */
    public static final String COMPLETION_TOKENS = "completion-tokens";
    /** A realtime model's text input tokens, not cached. */
    public static final String TEXT_INPUT_TOKENS = "text-input-tokens";
    /** A realtime model's audio input tokens, not cached. */
    public static final String AUDIO_INPUT_TOKENS = "audio-input-tokens";
    /** A realtime model's text input tokens read from its cache. */
    public static final String CACHED_TEXT_INPUT_TOKENS = "cached-text-input-tokens";
    /** A realtime model's audio input tokens read from its cache. */
    public static final String CACHED_AUDIO_INPUT_TOKENS = "cached-audio-input-tokens";
    /** A realtime model's text output tokens (the words of its audio, tool calls). */
    public static final String TEXT_OUTPUT_TOKENS = "text-output-tokens";
    /** A realtime model's audio output tokens. */
    public static final String AUDIO_OUTPUT_TOKENS = "audio-output-tokens";
    /** Characters a voice spoke. */
    public static final String CHARACTERS_SPOKEN = "characters";

    /** The part of the cost a kind goes into, as {@code costBreakdown} names it. */
    public enum Part {
        STT, LLM_INPUT, LLM_OUTPUT, TTS
    }

    /** What a kind is: its unit and its part. */
    public record Kind(String unit, Part part) {
    }

    public static final Map<String, Kind> KINDS = Map.ofEntries(
            Map.entry(TRANSCRIPTION, new Kind(SECONDS, Part.STT)),
            Map.entry(PROMPT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(CACHED_PROMPT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(CACHE_WRITE_PROMPT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(COMPLETION_TOKENS, new Kind(TOKENS, Part.LLM_OUTPUT)),
            Map.entry(TEXT_INPUT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(AUDIO_INPUT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(CACHED_TEXT_INPUT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(CACHED_AUDIO_INPUT_TOKENS, new Kind(TOKENS, Part.LLM_INPUT)),
            Map.entry(TEXT_OUTPUT_TOKENS, new Kind(TOKENS, Part.LLM_OUTPUT)),
            Map.entry(AUDIO_OUTPUT_TOKENS, new Kind(TOKENS, Part.LLM_OUTPUT)),
            Map.entry(CHARACTERS_SPOKEN, new Kind(CHARACTERS, Part.TTS)));

    private UsageKinds() {
    }

    public static Optional<Kind> of(String kind) {
        return Optional.ofNullable(kind == null ? null : KINDS.get(kind));
    }
}
