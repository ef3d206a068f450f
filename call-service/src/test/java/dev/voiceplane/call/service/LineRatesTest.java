package dev.voiceplane.call.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code VOICE_RATE_LINES} (docs/calls.md, "Rate card"): the most specific rule prices a line, the rate card the rest,
 * and a rule out of shape stops the service at start with a message naming the variable, the rule and the fault.
 */
class LineRatesTest {

    private static final RateCard CARD = new RateCard() {
        @Override
        public BigDecimal transportPerMinute() {
            return new BigDecimal("0.01");
        }

        @Override
        public BigDecimal sttPerMinute() {
            return new BigDecimal("0.01");
        }

        @Override
        public BigDecimal llmPromptPer1kTokens() {
            return new BigDecimal("0.0025");
        }

        @Override
        public BigDecimal llmCompletionPer1kTokens() {
            return new BigDecimal("0.01");
        }

        @Override
        public BigDecimal ttsPer1kCharacters() {
            return new BigDecimal("0.015");
        }

        @Override
        public BigDecimal platformPerMinute() {
            return new BigDecimal("0.05");
        }

        @Override
        public BigDecimal analysisPromptPer1kTokens() {
            return new BigDecimal("0.0025");
        }

        @Override
        public BigDecimal analysisCompletionPer1kTokens() {
            return new BigDecimal("0.01");
        }

        @Override
        public Optional<String> lines() {
            return Optional.empty();
        }
    };

    private static LineRates rates(String rules) {
        return new LineRates(CARD, rules, new ObjectMapper());
    }

    @Test
    void theMostSpecificRulePricesALineAndTheRateCardTheRest() {
        LineRates rates = rates("""
                [{"kind": "audio-input-tokens", "per1k": 0.04},
                 {"provider": "openai", "kind": "audio-input-tokens", "per1k": 0.035},
                 {"provider": "openai", "model": "gpt-realtime", "kind": "audio-input-tokens", "per1k": 0.032},
                 {"provider": "deepgram", "kind": "transcription", "perMinute": 0.0043}]""");
        assertEquals(new BigDecimal("0.032"), rates.rate("openai", "gpt-realtime", "audio-input-tokens"));
        assertEquals(new BigDecimal("0.035"), rates.rate("openai", "gpt-realtime-mini", "audio-input-tokens"));
        assertEquals(new BigDecimal("0.04"), rates.rate("azure-openai", "gpt-realtime", "audio-input-tokens"));
        assertEquals(new BigDecimal("0.0043"), rates.rate("deepgram", "nova-3", "transcription"));
        assertEquals(new BigDecimal("0.01"), rates.rate("gladia", null, "transcription"), "VOICE_RATE_STT_PER_MINUTE");
        assertEquals(new BigDecimal("0.0025"), rates.rate("openai", "gpt-4o", "cached-prompt-tokens"),
                "an input kind: VOICE_RATE_LLM_PROMPT_PER_1K");
        assertEquals(new BigDecimal("0.01"), rates.rate("openai", "gpt-realtime", "audio-output-tokens"),
                "an output kind: VOICE_RATE_LLM_COMPLETION_PER_1K");
        assertEquals(new BigDecimal("0.015"), rates.rate("11labs", "rachel", "characters"), "VOICE_RATE_TTS_PER_1K");
        assertEquals(new BigDecimal("0.01"), rates("").rate("deepgram", null, "transcription"), "no rules");
    }

    @Test
    void aMalformedRuleStopsTheServiceWithAMessageNamingIt() {
        Map<String, String> faults = Map.of(
                "[{\"kind\": \"transcription\", \"perMinute\": 0.01", "is not JSON",
                "{\"kind\": \"transcription\", \"perMinute\": 0.01}", "must be a JSON array",
                "[{\"kind\": \"thinking-tokens\", \"per1k\": 0.01}]", "kind must be one of",
                "[{\"kind\": \"transcription\", \"per1k\": 0.01}]", "is priced by perMinute",
                "[{\"kind\": \"audio-input-tokens\", \"per1k\": \"0.01\"}]", "is priced by per1k",
                "[{\"model\": \"gpt-realtime\", \"kind\": \"audio-input-tokens\", \"per1k\": 0.01}]",
                "a model needs its provider",
                "[{\"kind\": \"characters\", \"per1k\": -0.01}]", "must not be negative",
                "[{\"kind\": \"characters\", \"per1k\": 0.01, \"currency\": \"EUR\"}]", "unknown field currency",
                "[{\"kind\": \"characters\", \"per1k\": 0.01}, {\"kind\": \"characters\", \"per1k\": 0.02}]",
                "a second rule for the same provider, model and kind");
        faults.forEach((rules, fault) -> {
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> rates(rules), rules);
            assertTrue(thrown.getMessage().startsWith("VOICE_RATE_LINES (voice.rates.lines) "), thrown.getMessage());
            assertTrue(thrown.getMessage().contains(fault), rules + " → " + thrown.getMessage());
        });
    }
}
