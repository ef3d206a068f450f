package dev.voiceplane.call.service;

import dev.voiceplane.call.api.CostBreakdown;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The cost of a call from its duration, usage and analysis times the {@link RateCard}. Each part is rounded to
 * six decimals and {@code total} is their sum, so {@code cost == costBreakdown.total} exactly (docs/calls.md, "Rate
 * card").
 */
public final class Costs {

    private static final int SCALE = 6;
    private static final BigDecimal SIXTY = BigDecimal.valueOf(60);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private Costs() {
    }

    /** What the call used. */
    public record Usage(BigDecimal durationSeconds, boolean phone, BigDecimal sttSeconds, long llmPromptTokens,
            long llmCompletionTokens, long ttsCharacters) {
    }

    /** Tokens of one analysis part. */
    public record Tokens(long prompt, long completion) {
        public static final Tokens NONE = new Tokens(0, 0);
    }

    public static CostBreakdown breakdown(RateCard rates, Usage usage, Tokens summary, Tokens structuredData,
            Tokens successEvaluation) {
        BigDecimal minutes = usage.durationSeconds().divide(SIXTY, 12, RoundingMode.HALF_UP);
        BigDecimal transport = usage.phone() ? round(minutes.multiply(rates.transportPerMinute())) : round(BigDecimal.ZERO);
        BigDecimal stt = round(usage.sttSeconds().divide(SIXTY, 12, RoundingMode.HALF_UP).multiply(rates.sttPerMinute()));
        BigDecimal llm = round(perThousand(usage.llmPromptTokens(), rates.llmPromptPer1kTokens())
                .add(perThousand(usage.llmCompletionTokens(), rates.llmCompletionPer1kTokens())));
        BigDecimal tts = round(perThousand(usage.ttsCharacters(), rates.ttsPer1kCharacters()));
        BigDecimal platform = round(minutes.multiply(rates.platformPerMinute()));
        BigDecimal summaryCost = analysis(rates, summary);
        BigDecimal structuredCost = analysis(rates, structuredData);
        BigDecimal successCost = analysis(rates, successEvaluation);
        BigDecimal total = transport.add(stt).add(llm).add(tts).add(platform).add(summaryCost).add(structuredCost)
                .add(successCost);
        return new CostBreakdown(transport, stt, llm, tts, platform, total, usage.llmPromptTokens(),
                usage.llmCompletionTokens(), usage.ttsCharacters(),
                new CostBreakdown.AnalysisCostBreakdown(summaryCost, summary.prompt(), summary.completion(),
                        structuredCost, structuredData.prompt(), structuredData.completion(), successCost,
                        successEvaluation.prompt(), successEvaluation.completion()));
    }

    private static BigDecimal analysis(RateCard rates, Tokens tokens) {
        return round(perThousand(tokens.prompt(), rates.analysisPromptPer1kTokens())
                .add(perThousand(tokens.completion(), rates.analysisCompletionPer1kTokens())));
    }

    private static BigDecimal perThousand(long amount, BigDecimal rate) {
        return BigDecimal.valueOf(amount).multiply(rate).divide(THOUSAND, 12, RoundingMode.HALF_UP);
    }

    private static BigDecimal round(BigDecimal value) {
        return value.setScale(SCALE, RoundingMode.HALF_UP);
    }
}
