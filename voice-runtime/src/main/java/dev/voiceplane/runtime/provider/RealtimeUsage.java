package dev.voiceplane.runtime.provider;

import dev.voiceplane.contracts.call.UsageKinds;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tokens one reply of a speech-to-speech model used: its input and output totals and, where the provider details
 * them (OpenAI Realtime's {@code usage.input_token_details} and {@code output_token_details}), their text and audio
 * parts and the cached part of the input ({@code cached_tokens}, split by {@code cached_tokens_details}). Text and
 * audio input include their cached tokens, as OpenAI counts them.
 */
public record RealtimeUsage(long inputTokens, long outputTokens, long textInputTokens, long audioInputTokens,
        long cachedTextInputTokens, long cachedAudioInputTokens, long textOutputTokens, long audioOutputTokens) {

    /** Totals alone (a provider that does not detail them): they are costed as a chat model's tokens. */
    public static RealtimeUsage totals(long inputTokens, long outputTokens) {
        return new RealtimeUsage(inputTokens, outputTokens, 0, 0, 0, 0, 0, 0);
    }

    /**
     * The reply's tokens by kind ({@link UsageKinds}), which do not overlap and sum to the totals: cached text and
     * audio input, the rest of the text and audio input, text and audio output, and what the details do not account
     * for (all of it when there are none) as {@code prompt-tokens} and {@code completion-tokens}.
     */
    public Map<String, Long> byKind() {
        Map<String, Long> kinds = new LinkedHashMap<>();
        long cachedText = Math.min(Math.max(0, cachedTextInputTokens), Math.max(0, textInputTokens));
        long cachedAudio = Math.min(Math.max(0, cachedAudioInputTokens), Math.max(0, audioInputTokens));
        long text = Math.max(0, textInputTokens) - cachedText;
        long audio = Math.max(0, audioInputTokens) - cachedAudio;
        long detailedInput = cachedText + cachedAudio + text + audio;
        long textOut = Math.max(0, textOutputTokens);
        long audioOut = Math.max(0, audioOutputTokens);
        kinds.put(UsageKinds.TEXT_INPUT_TOKENS, text);
        kinds.put(UsageKinds.AUDIO_INPUT_TOKENS, audio);
        kinds.put(UsageKinds.CACHED_TEXT_INPUT_TOKENS, cachedText);
        kinds.put(UsageKinds.CACHED_AUDIO_INPUT_TOKENS, cachedAudio);
        kinds.put(UsageKinds.PROMPT_TOKENS, Math.max(0, inputTokens - detailedInput));
        kinds.put(UsageKinds.TEXT_OUTPUT_TOKENS, textOut);
        kinds.put(UsageKinds.AUDIO_OUTPUT_TOKENS, audioOut);
        kinds.put(UsageKinds.COMPLETION_TOKENS, Math.max(0, outputTokens - textOut - audioOut));
        kinds.values().removeIf(tokens -> tokens == 0);
        return kinds;
    }
}
