package dev.voiceplane.runtime.provider;

/**
 * The tokens one chat answer used, as its provider reported them: {@code promptTokens} all of its input, of which
 * {@code cachedPromptTokens} were read from the provider's prompt cache (OpenAI's
 * {@code prompt_tokens_details.cached_tokens}, Anthropic's {@code cache_read_input_tokens}, Gemini's
 * {@code cachedContentTokenCount}) and {@code cacheWritePromptTokens} written to it (Anthropic's
 * {@code cache_creation_input_tokens}); {@code completionTokens} its output. {@code provider} and {@code model} say
 * who answered when a fallback chain knows it ({@link FallbackModel}); null: the assistant's model.
 */
public record ModelUsage(long promptTokens, long cachedPromptTokens, long cacheWritePromptTokens,
        long completionTokens, String provider, String model) {

    /** Input and output tokens, nothing cached, from the assistant's model. */
    public static ModelUsage of(long promptTokens, long completionTokens) {
        return new ModelUsage(promptTokens, 0, 0, completionTokens, null, null);
    }

    /** Input, of it the cached reads and the cache writes, and output, from the assistant's model. */
    public static ModelUsage cached(long promptTokens, long cachedPromptTokens, long cacheWritePromptTokens,
            long completionTokens) {
        return new ModelUsage(promptTokens, cachedPromptTokens, cacheWritePromptTokens, completionTokens, null, null);
    }

    /** The same tokens, from {@code provider}'s {@code model}. */
    public ModelUsage from(String provider, String model) {
        return new ModelUsage(promptTokens, cachedPromptTokens, cacheWritePromptTokens, completionTokens, provider,
                model);
    }

    /** Input tokens neither read from nor written to a cache (never below zero, whatever a provider says). */
    public long uncachedPromptTokens() {
        return Math.max(0, promptTokens - cachedPromptTokens - cacheWritePromptTokens);
    }
}
