package dev.voiceplane.runtime.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runtime's metrics (Prometheus at {@code /q/metrics}): live calls, per-stage latency histograms of each turn
 * ({@code voice_runtime_stage_seconds{stage}}), provider errors by provider and stage, refused media connections
 * by reason, calls ended by reason, and the caller's DTMF digits the runtime dropped by transport.
 */
@ApplicationScoped
public class RuntimeMetrics {

    /** Stages of a turn; {@code own} is the runtime's own share (hand-offs between providers and to the caller). */
    public enum Stage {
        END_OF_TURN("end_of_turn"), LLM_FIRST_TOKEN("llm_first_token"), TTS_FIRST_AUDIO("tts_first_audio"),
        VOICE_TO_VOICE("voice_to_voice"), OWN("own"), BARGE_IN("barge_in");

        private final String tag;

        Stage(String tag) {
            this.tag = tag;
        }
    }

    private final MeterRegistry registry;
    private final AtomicInteger live = new AtomicInteger();
    private final ConcurrentHashMap<Stage, Timer> stages = new ConcurrentHashMap<>();

    public RuntimeMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("voice_runtime_live_calls", live);
    }

    public void callStarted() {
        live.incrementAndGet();
    }

    public void callEnded(String reason) {
        live.decrementAndGet();
        Counter.builder("voice_runtime_calls_ended").tag("reason", reason).register(registry).increment();
    }

    public int liveCalls() {
        return live.get();
    }

    public void stage(Stage stage, long nanos) {
        if (nanos < 0) {
            return;
        }
        stages.computeIfAbsent(stage, s -> Timer.builder("voice_runtime_stage").tag("stage", s.tag)
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry)).record(Duration.ofNanos(nanos));
    }

    /** A provider that failed a call, by stage and by what went wrong ({@code auth}, {@code timeout}, ...). */
    public void providerError(String provider, String stage, dev.voiceplane.runtime.provider.ProviderError.Kind kind) {
        providerError(provider, stage, kind.label());
    }

    /** A provider that failed a call; {@code kind} also {@code unsupported} or {@code no-key} at the call's start. */
    public void providerError(String provider, String stage, String kind) {
        Counter.builder("voice_runtime_provider_errors").tag("provider", provider).tag("stage", stage)
                .tag("kind", kind).register(registry).increment();
    }

    public void refused(String reason) {
        Counter.builder("voice_runtime_media_refused").tag("reason", reason).register(registry).increment();
    }

    /**
     * A preemptive reply ({@code asked}, then {@code confirmed} or {@code dropped}):
     * {@code voice_runtime_preemptive_replies_total{result}}, so an operator sees how often the guess was wasted.
     */
    public void preemptiveReply(String result) {
        Counter.builder("voice_runtime_preemptive_replies").tag("result", result).register(registry).increment();
    }

    /**
     * A DTMF digit a caller pressed on a carrier stream ({@code twilio}, {@code vonage}), which the conversation does
     * not take as input: {@code voice_runtime_caller_dtmf_dropped_total{transport}}, so it is not lost unseen.
     */
    public void callerDtmfDropped(String transport) {
        Counter.builder("voice_runtime_caller_dtmf_dropped").tag("transport", transport).register(registry).increment();
    }

    /** A live message of {@code kind} reported to call-service, or merged into one still waiting (coalesced). */
    public void liveMessage(String kind, boolean coalesced) {
        Counter.builder("voice_runtime_live_messages").tag("kind", kind)
                .tag("result", coalesced ? "coalesced" : "reported").register(registry).increment();
    }

    /**
     * One knowledge-base search of a turn: {@code voice_runtime_knowledge_searches_total{result}} ({@code found},
     * {@code none}, {@code failed}, {@code timeout}) and how long the turn waited for it
     * ({@code voice_runtime_knowledge_search_seconds}).
     */
    public void knowledgeSearch(String result, long nanos) {
        Counter.builder("voice_runtime_knowledge_searches").tag("result", result).register(registry).increment();
        Timer.builder("voice_runtime_knowledge_search").publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry).record(Duration.ofNanos(Math.max(0, nanos)));
    }
}
