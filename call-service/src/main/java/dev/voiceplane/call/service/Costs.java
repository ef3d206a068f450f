package dev.voiceplane.call.service;

import dev.voiceplane.call.api.CallCost;
import dev.voiceplane.call.api.CostBreakdown;
import dev.voiceplane.contracts.call.UsageKinds;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost of a call from its duration, usage lines and analysis (docs/calls.md, "Rate card"). Each line is priced by
 * {@link LineRates}; the lines of one transcriber, one model or one voice make one entry of {@code costs}, rounded to
 * six decimals; {@code costBreakdown.stt}, {@code llm} and {@code tts} are the sums of the transcriber, model and voice
 * entries, transport, platform and each analysis request one entry each, and {@code total} their sum: {@code cost ==
 * costBreakdown.total ==} the sum of {@code costs}, exactly.
 */
public final class Costs {

    private static final int SCALE = 6;
    private static final int PRECISION = 12;
    private static final BigDecimal SIXTY = BigDecimal.valueOf(60);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private Costs() {
    }

    /**
     * What the call used: its duration, whether it was a phone call and on which carrier, and its usage lines (those
     * the runtime reported, or {@link #fromTotals} of a runtime of the previous release).
     */
    public record Usage(BigDecimal durationSeconds, boolean phone, String transportProvider, List<Line> lines) {
    }

    /** One usage line: {@code quantity} {@code unit}s of {@code kind} from {@code provider}'s {@code model}. */
    public record Line(String provider, String model, String kind, BigDecimal quantity, String unit) {
    }

    /** Tokens of one analysis part. */
    public record Tokens(long prompt, long completion) {
        public static final Tokens NONE = new Tokens(0, 0);
    }

    /** The analysis plan's three requests and the model that answered them. */
    public record Analysis(String provider, String model, Tokens summary, Tokens structuredData,
            Tokens successEvaluation) {
    }

    /** {@code costBreakdown} and {@code costs}. */
    public record Result(CostBreakdown breakdown, List<CallCost> costs) {
    }

    /** The four totals of a runtime of the previous release as lines of no provider, costed at the default rates. */
    public static List<Line> fromTotals(BigDecimal sttSeconds, long promptTokens, long completionTokens,
            long ttsCharacters) {
        return List.of(new Line(null, null, UsageKinds.TRANSCRIPTION, sttSeconds, UsageKinds.SECONDS),
                new Line(null, null, UsageKinds.PROMPT_TOKENS, BigDecimal.valueOf(promptTokens), UsageKinds.TOKENS),
                new Line(null, null, UsageKinds.COMPLETION_TOKENS, BigDecimal.valueOf(completionTokens),
                        UsageKinds.TOKENS),
                new Line(null, null, UsageKinds.CHARACTERS_SPOKEN, BigDecimal.valueOf(ttsCharacters),
                        UsageKinds.CHARACTERS));
    }

    private record Who(String provider, String model) {
    }

    /** What the lines of one transcriber, model or voice add up to. */
    private static final class Entry {
        BigDecimal quantity = BigDecimal.ZERO;
        long input;
        long output;
        long cached;
        BigDecimal cost = BigDecimal.ZERO;
    }

    public static Result of(RateCard card, LineRates rates, Usage usage, Analysis analysis) {
        Map<Who, Entry> transcribers = new LinkedHashMap<>();
        Map<Who, Entry> models = new LinkedHashMap<>();
        Map<Who, Entry> voices = new LinkedHashMap<>();
        for (Line line : usage.lines()) {
            UsageKinds.Kind kind = UsageKinds.of(line.kind()).orElse(null);
            if (kind == null || line.quantity().signum() <= 0) {
                continue;
            }
            Map<Who, Entry> entries = switch (kind.part()) {
                case STT -> transcribers;
                case LLM_INPUT, LLM_OUTPUT -> models;
                case TTS -> voices;
            };
            Entry entry = entries.computeIfAbsent(new Who(line.provider(), line.model()), who -> new Entry());
            entry.quantity = entry.quantity.add(line.quantity());
            long whole = line.quantity().longValue();
            if (kind.part() == UsageKinds.Part.LLM_INPUT) {
                entry.input += whole;
                if (line.kind().startsWith("cached-")) {
                    entry.cached += whole;
                }
            } else if (kind.part() == UsageKinds.Part.LLM_OUTPUT) {
                entry.output += whole;
            }
            entry.cost = entry.cost.add(line.quantity().multiply(rates.rate(line.provider(), line.model(), line.kind()))
                    .divide(LineRates.per(line.unit()), PRECISION, RoundingMode.HALF_UP));
        }

        List<CallCost> costs = new ArrayList<>();
        BigDecimal minutes = usage.durationSeconds().divide(SIXTY, PRECISION, RoundingMode.HALF_UP);
        BigDecimal transport = usage.phone() ? round(minutes.multiply(card.transportPerMinute())) : round(BigDecimal.ZERO);
        costs.add(new CallCost.Transport(usage.phone() ? usage.transportProvider() : null, minutesShown(minutes),
                transport));
        BigDecimal stt = round(BigDecimal.ZERO);
        for (Map.Entry<Who, Entry> transcriber : transcribers.entrySet()) {
            BigDecimal cost = round(transcriber.getValue().cost);
            stt = stt.add(cost);
            costs.add(new CallCost.Transcriber(new CallCost.Model(transcriber.getKey().provider(),
                    transcriber.getKey().model()), minutesShown(transcriber.getValue().quantity.divide(SIXTY,
                    PRECISION, RoundingMode.HALF_UP)), cost));
        }
        BigDecimal llm = round(BigDecimal.ZERO);
        long promptTokens = 0;
        long completionTokens = 0;
        for (Map.Entry<Who, Entry> model : models.entrySet()) {
            Entry entry = model.getValue();
            BigDecimal cost = round(entry.cost);
            llm = llm.add(cost);
            promptTokens += entry.input;
            completionTokens += entry.output;
            costs.add(new CallCost.ModelCost(new CallCost.Model(model.getKey().provider(), model.getKey().model()),
                    entry.input, entry.output, entry.cached > 0 ? entry.cached : null, cost));
        }
        BigDecimal tts = round(BigDecimal.ZERO);
        long characters = 0;
        for (Map.Entry<Who, Entry> voice : voices.entrySet()) {
            BigDecimal cost = round(voice.getValue().cost);
            tts = tts.add(cost);
            characters += voice.getValue().quantity.longValue();
            costs.add(new CallCost.VoiceCost(new CallCost.Voice(voice.getKey().provider(), voice.getKey().model()),
                    voice.getValue().quantity.longValue(), cost));
        }
        BigDecimal platform = round(minutes.multiply(card.platformPerMinute()));
        costs.add(new CallCost.Platform(minutesShown(minutes), platform));
        BigDecimal summaryCost = analysis(card, analysis, "summary", analysis.summary(), costs);
        BigDecimal structuredCost = analysis(card, analysis, "structuredData", analysis.structuredData(), costs);
        BigDecimal successCost = analysis(card, analysis, "successEvaluation", analysis.successEvaluation(), costs);
        BigDecimal total = transport.add(stt).add(llm).add(tts).add(platform).add(summaryCost).add(structuredCost)
                .add(successCost);
        CostBreakdown breakdown = new CostBreakdown(transport, stt, llm, tts, platform, total, promptTokens,
                completionTokens, characters, new CostBreakdown.AnalysisCostBreakdown(summaryCost,
                        analysis.summary().prompt(), analysis.summary().completion(), structuredCost,
                        analysis.structuredData().prompt(), analysis.structuredData().completion(), successCost,
                        analysis.successEvaluation().prompt(), analysis.successEvaluation().completion()));
        return new Result(breakdown, List.copyOf(costs));
    }

    /** One analysis request's cost; an entry of {@code costs} when it ran (used tokens). */
    private static BigDecimal analysis(RateCard card, Analysis analysis, String type, Tokens tokens,
            List<CallCost> costs) {
        BigDecimal cost = round(perThousand(tokens.prompt(), card.analysisPromptPer1kTokens())
                .add(perThousand(tokens.completion(), card.analysisCompletionPer1kTokens())));
        if (tokens.prompt() > 0 || tokens.completion() > 0) {
            costs.add(new CallCost.Analysis(type, new CallCost.Model(analysis.provider(), analysis.model()),
                    tokens.prompt(), tokens.completion(), cost));
        }
        return cost;
    }

    private static BigDecimal perThousand(long amount, BigDecimal rate) {
        return BigDecimal.valueOf(amount).multiply(rate).divide(THOUSAND, PRECISION, RoundingMode.HALF_UP);
    }

    private static BigDecimal round(BigDecimal value) {
        return value.setScale(SCALE, RoundingMode.HALF_UP);
    }

    /** Minutes as shown: to six decimals, without trailing zeros. */
    private static BigDecimal minutesShown(BigDecimal minutes) {
        BigDecimal shown = minutes.setScale(SCALE, RoundingMode.HALF_UP).stripTrailingZeros();
        return shown.scale() < 0 ? shown.setScale(0) : shown;
    }
}
