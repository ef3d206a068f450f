package dev.voiceplane.call.service;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * What a call costs (USD), from configuration ({@code voice.rates.*}, docs/calls.md "Rate card"): per minute of
 * the call (transport for phone calls, the platform charge for every call), per minute of speech-to-text, per 1,000
 * language-model tokens, per 1,000 characters of speech, per 1,000 tokens of analysis; and the prices of usage lines
 * apart ({@code voice.rates.lines}).
 */
@ConfigMapping(prefix = "voice.rates")
public interface RateCard {

    BigDecimal transportPerMinute();

    BigDecimal sttPerMinute();

    @WithName("llm-prompt-per-1k-tokens")
    BigDecimal llmPromptPer1kTokens();

    @WithName("llm-completion-per-1k-tokens")
    BigDecimal llmCompletionPer1kTokens();

    @WithName("tts-per-1k-characters")
    BigDecimal ttsPer1kCharacters();

    BigDecimal platformPerMinute();

    @WithName("analysis-prompt-per-1k-tokens")
    BigDecimal analysisPromptPer1kTokens();

    @WithName("analysis-completion-per-1k-tokens")
    BigDecimal analysisCompletionPer1kTokens();

    /** {@code VOICE_RATE_LINES}: the prices of usage lines by provider, model and kind ({@link LineRates}). */
    Optional<String> lines();
}
