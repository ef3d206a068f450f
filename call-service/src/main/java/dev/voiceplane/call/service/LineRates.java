package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.contracts.call.UsageKinds;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The price of each usage line (docs/calls.md, "Rate card"): by default per kind, from the {@link RateCard}
 * ({@code VOICE_RATE_STT_PER_MINUTE} for transcription, {@code VOICE_RATE_LLM_PROMPT_PER_1K} for every input token
 * kind, {@code VOICE_RATE_LLM_COMPLETION_PER_1K} for every output token kind, {@code VOICE_RATE_TTS_PER_1K} for
 * characters), so that lines cost what the totals they sum to cost; overridden by {@code VOICE_RATE_LINES}, a JSON
 * array of rules {@code {"provider"?, "model"?, "kind", "perMinute" | "per1k"}}: a rule with a provider and a model
 * prices that model's lines of the kind, one with a provider alone that provider's, one with neither every line of
 * the kind; the most specific rule wins. Read and checked once, at start: a rule out of shape stops the service with a
 * message naming it.
 */
@ApplicationScoped
@Startup
public class LineRates {

    private static final Set<String> FIELDS = Set.of("provider", "model", "kind", "perMinute", "per1k");

    private record Key(String provider, String model, String kind) {
    }

    /** The price of a kind's customary amount: a minute of seconds, 1,000 tokens or characters. */
    private final Map<Key, BigDecimal> rates;
    private final RateCard card;

    @Inject
    public LineRates(RateCard card, ObjectMapper json) {
        this(card, card.lines().orElse(""), json);
    }

    LineRates(RateCard card, String rules, ObjectMapper json) {
        this.card = card;
        this.rates = parse(rules, json);
    }

    /** The rules of {@code VOICE_RATE_LINES} (blank: none); an {@link IllegalArgumentException} names what is wrong. */
    static Map<Key, BigDecimal> parse(String rules, ObjectMapper json) {
        Map<Key, BigDecimal> rates = new HashMap<>();
        if (rules.isBlank()) {
            return rates;
        }
        JsonNode array;
        try {
            array = json.readTree(rules);
        } catch (JsonProcessingException e) {
            throw invalid("is not JSON: " + e.getOriginalMessage());
        }
        if (array == null || !array.isArray()) {
            throw invalid("must be a JSON array of rules {\"provider\", \"model\", \"kind\", \"perMinute\" | \"per1k\"}");
        }
        for (int i = 0; i < array.size(); i++) {
            JsonNode rule = array.get(i);
            String where = "rule " + i + " (" + rule + ")";
            if (!rule.isObject()) {
                throw invalid(where + " is not an object");
            }
            for (Iterator<String> names = rule.fieldNames(); names.hasNext();) {
                String name = names.next();
                if (!FIELDS.contains(name)) {
                    throw invalid(where + ": unknown field " + name + " (one of " + String.join(", ", FIELDS.stream()
                            .sorted().toList()) + ")");
                }
            }
            String kind = text(rule, "kind", where);
            UsageKinds.Kind known = UsageKinds.of(kind).orElseThrow(() -> invalid(where + ": kind must be one of "
                    + String.join(", ", UsageKinds.KINDS.keySet().stream().sorted().toList())));
            String provider = rule.has("provider") ? text(rule, "provider", where) : null;
            String model = rule.has("model") ? text(rule, "model", where) : null;
            if (model != null && provider == null) {
                throw invalid(where + ": a model needs its provider");
            }
            String priceField = UsageKinds.SECONDS.equals(known.unit()) ? "perMinute" : "per1k";
            String otherField = priceField.equals("perMinute") ? "per1k" : "perMinute";
            if (rule.has(otherField) || !rule.path(priceField).isNumber()) {
                throw invalid(where + ": the kind " + kind + " is priced by " + priceField + " (USD per "
                        + (priceField.equals("perMinute") ? "minute" : "1,000 " + known.unit()) + "), a number");
            }
            BigDecimal price = rule.path(priceField).decimalValue();
            if (price.signum() < 0) {
                throw invalid(where + ": " + priceField + " must not be negative");
            }
            if (rates.put(new Key(provider, model, kind), price) != null) {
                throw invalid(where + ": a second rule for the same provider, model and kind");
            }
        }
        return rates;
    }

    private static String text(JsonNode rule, String field, String where) {
        JsonNode value = rule.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw invalid(where + ": " + field + " must be a non-empty string");
        }
        return value.asText();
    }

    private static IllegalArgumentException invalid(String why) {
        return new IllegalArgumentException("VOICE_RATE_LINES (voice.rates.lines) " + why);
    }

    /**
     * The price (USD) of {@code kind}'s customary amount from {@code provider}'s {@code model}: per minute for
     * seconds, per 1,000 tokens or characters.
     */
    public BigDecimal rate(String provider, String model, String kind) {
        BigDecimal rate = provider != null && model != null ? rates.get(new Key(provider, model, kind)) : null;
        if (rate == null && provider != null) {
            rate = rates.get(new Key(provider, null, kind));
        }
        if (rate == null) {
            rate = rates.get(new Key(null, null, kind));
        }
        return rate != null ? rate : defaultRate(kind);
    }

    /** The rate card's price of a kind (the part its totals are costed at). */
    private BigDecimal defaultRate(String kind) {
        UsageKinds.Kind known = UsageKinds.of(kind).orElseThrow(() -> new IllegalArgumentException("kind " + kind));
        return switch (known.part()) {
            case STT -> card.sttPerMinute();
            case LLM_INPUT -> card.llmPromptPer1kTokens();
            case LLM_OUTPUT -> card.llmCompletionPer1kTokens();
            case TTS -> card.ttsPer1kCharacters();
        };
    }

    /** The amount a rate is for: 60 seconds, or 1,000 tokens or characters. */
    static BigDecimal per(String unit) {
        return UsageKinds.SECONDS.equals(unit) ? BigDecimal.valueOf(60) : BigDecimal.valueOf(1000);
    }
}
