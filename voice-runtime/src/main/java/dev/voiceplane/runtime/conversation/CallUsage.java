package dev.voiceplane.runtime.conversation;

import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.contracts.call.UsageKinds;
import dev.voiceplane.runtime.provider.ModelUsage;
import dev.voiceplane.runtime.provider.RealtimeUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a call used, as the lines of its {@code ended} event (docs/voice-runtime.md, "Usage"): one line per provider,
 * model, kind and unit, summed over the whole call, squad members included (a member on the same provider and model
 * as an earlier one adds to its lines). The call owns one and lends it to its engine, which adds to it as its
 * providers are used; the four totals of the earlier contract are the lines summed. Used on the call's context only.
 */
final class CallUsage {

    private record Key(String provider, String model, String kind) {
    }

    private final Map<Key, Double> quantities = new LinkedHashMap<>();

    /** Seconds of caller audio sent to {@code provider}'s transcriber {@code model}. */
    void transcription(String provider, String model, double seconds) {
        add(provider, model, UsageKinds.TRANSCRIPTION, seconds);
    }

    /** A chat answer's tokens, from the model that answered ({@code usage}'s, else {@code provider}'s {@code model}). */
    void chat(String provider, String model, ModelUsage usage) {
        String from = usage.provider() != null ? usage.provider() : provider;
        String id = usage.provider() != null ? usage.model() : model;
        add(from, id, UsageKinds.PROMPT_TOKENS, usage.uncachedPromptTokens());
        add(from, id, UsageKinds.CACHED_PROMPT_TOKENS, Math.min(usage.cachedPromptTokens(), usage.promptTokens()));
        add(from, id, UsageKinds.CACHE_WRITE_PROMPT_TOKENS,
                Math.min(usage.cacheWritePromptTokens(), usage.promptTokens() - usage.cachedPromptTokens()));
        add(from, id, UsageKinds.COMPLETION_TOKENS, usage.completionTokens());
    }

    /** A realtime reply's tokens, by kind. */
    void realtime(String provider, String model, RealtimeUsage usage) {
        usage.byKind().forEach((kind, tokens) -> add(provider, model, kind, tokens));
    }

    /** Characters {@code provider}'s voice {@code voiceId} was asked to speak. */
    void characters(String provider, String voiceId, long characters) {
        add(provider, voiceId, UsageKinds.CHARACTERS_SPOKEN, characters);
    }

    private void add(String provider, String model, String kind, double quantity) {
        if (quantity > 0) {
            quantities.merge(new Key(provider, model, kind), quantity, Double::sum);
        }
    }

    /** The lines, in the order they were first used; seconds to the millisecond. */
    List<RuntimeEvent.UsageLine> lines() {
        List<RuntimeEvent.UsageLine> lines = new ArrayList<>();
        quantities.forEach((key, quantity) -> {
            String unit = UsageKinds.KINDS.get(key.kind()).unit();
            Number amount = UsageKinds.SECONDS.equals(unit) ? (Number) (Math.round(quantity * 1000) / 1000.0)
                    : (Number) Math.round(quantity);
            lines.add(new RuntimeEvent.UsageLine(key.provider(), key.model(), key.kind(), amount, unit));
        });
        return lines;
    }

    /** The lines and their totals, as the {@code ended} event carries them. */
    RuntimeEvent.Usage report() {
        List<RuntimeEvent.UsageLine> lines = lines();
        double seconds = 0;
        long input = 0;
        long output = 0;
        long characters = 0;
        for (RuntimeEvent.UsageLine line : lines) {
            switch (UsageKinds.KINDS.get(line.kind()).part()) {
                case STT -> seconds += line.quantity().doubleValue();
                case LLM_INPUT -> input += line.quantity().longValue();
                case LLM_OUTPUT -> output += line.quantity().longValue();
                case TTS -> characters += line.quantity().longValue();
            }
        }
        return new RuntimeEvent.Usage(Math.round(seconds * 1000) / 1000.0, input, output, characters, lines);
    }
}
