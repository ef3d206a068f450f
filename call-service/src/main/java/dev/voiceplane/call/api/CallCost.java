package dev.voiceplane.call.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;

/**
 * One entry of {@code call.costs} (docs/calls.md, "Rate card"), in the shape of the hosted platform's published SDK
 * ({@code TransportCost}, {@code TranscriberCost}, {@code ModelCost}, {@code VoiceCost}, {@code VapiCost},
 * {@code AnalysisCost}), told apart by {@code type}; {@code cost} in USD. The entries sum to {@code call.cost}.
 */
@RegisterForReflection
public sealed interface CallCost {

    String type();

    BigDecimal cost();

    /** Who a transcriber, a model or a voice was: its provider and its model (a voice's is its voice id). */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Model(String provider, String model) {
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Voice(String provider, String voiceId) {
    }

    /** The carrier's minutes (phone calls; a web call's transport costs nothing and names no provider). */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Transport(String type, String provider, BigDecimal minutes, BigDecimal cost) implements CallCost {
        public Transport(String provider, BigDecimal minutes, BigDecimal cost) {
            this("transport", provider, minutes, cost);
        }
    }

    /** Minutes of caller audio a transcriber heard. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Transcriber(String type, Model transcriber, BigDecimal minutes, BigDecimal cost) implements CallCost {
        public Transcriber(Model transcriber, BigDecimal minutes, BigDecimal cost) {
            this("transcriber", transcriber, minutes, cost);
        }
    }

    /**
     * A model's tokens: {@code promptTokens} all its input (text and audio), of which {@code cachedPromptTokens} were
     * read from a cache (absent when none were), {@code completionTokens} all its output.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ModelCost(String type, Model model, long promptTokens, long completionTokens, Long cachedPromptTokens,
            BigDecimal cost) implements CallCost {
        public ModelCost(Model model, long promptTokens, long completionTokens, Long cachedPromptTokens,
                BigDecimal cost) {
            this("model", model, promptTokens, completionTokens, cachedPromptTokens, cost);
        }
    }

    /** Characters a voice spoke. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record VoiceCost(String type, Voice voice, long characters, BigDecimal cost) implements CallCost {
        public VoiceCost(Voice voice, long characters, BigDecimal cost) {
            this("voice", voice, characters, cost);
        }
    }

    /** The platform's own charge per minute of the call, typed as the SDK types it. */
    @RegisterForReflection
    record Platform(String type, String subType, BigDecimal minutes, BigDecimal cost) implements CallCost {
        public Platform(BigDecimal minutes, BigDecimal cost) {
            this("vapi", "normal", minutes, cost);
        }
    }

    /** One request of the analysis plan: {@code summary}, {@code structuredData} or {@code successEvaluation}. */
    @RegisterForReflection
    record Analysis(String type, String analysisType, Model model, long promptTokens, long completionTokens,
            BigDecimal cost) implements CallCost {
        public Analysis(String analysisType, Model model, long promptTokens, long completionTokens, BigDecimal cost) {
            this("analysis", analysisType, model, promptTokens, completionTokens, cost);
        }
    }
}
