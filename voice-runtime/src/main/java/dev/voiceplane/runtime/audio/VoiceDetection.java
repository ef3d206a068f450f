package dev.voiceplane.runtime.audio;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The runtime's voice activity detection, chosen by {@code VOICE_VAD}: {@code silero} (Silero VAD v5 on the VAD
 * thread, batched across calls) or {@code energy} (the level of 20 ms frames). Both feed the same end-of-turn and
 * barge-in decisions (docs/voice-runtime.md, "Voice activity"). With Silero the model is loaded at startup, so a
 * runtime that cannot run it fails at once rather than on its first call; its work shows at {@code /q/metrics}
 * ({@code voice_runtime_vad_windows_total{result}}, {@code voice_runtime_vad_inference_seconds_total},
 * {@code voice_runtime_vad_detectors}).
 */
@Startup
@ApplicationScoped
public class VoiceDetection {

    private static final Logger LOG = Logger.getLogger(VoiceDetection.class);

    private final String mode;
    private final VoiceDetector.Factory factory;
    private final SileroVad silero;

    public VoiceDetection(MeterRegistry registry,
            @ConfigProperty(name = "voice.runtime.vad.mode") String mode,
            @ConfigProperty(name = "voice.runtime.vad.threshold-dbfs") double thresholdDbfs,
            @ConfigProperty(name = "voice.runtime.vad.start-millis") int startMillis,
            @ConfigProperty(name = "voice.runtime.vad.stop-millis") int stopMillis,
            @ConfigProperty(name = "voice.runtime.vad.activation-threshold") double activationThreshold,
            @ConfigProperty(name = "voice.runtime.vad.gate-dbfs") double gateDbfs,
            @ConfigProperty(name = "voice.runtime.vad.max-batch") int maxBatch) {
        this.mode = mode.trim().toLowerCase(Locale.ROOT);
        switch (this.mode) {
            case "energy" -> {
                silero = null;
                factory = VoiceDetector.energy(new VoiceActivity.Settings(thresholdDbfs, startMillis, stopMillis));
            }
            case "silero" -> {
                if (activationThreshold <= 0 || activationThreshold >= 1) {
                    throw new IllegalArgumentException("VOICE_VAD_ACTIVATION_THRESHOLD must be between 0 and 1, not "
                            + activationThreshold);
                }
                silero = new SileroVad(SileroModel.load(), new SileroVad.Settings(activationThreshold, startMillis,
                        stopMillis, gateDbfs, maxBatch));
                factory = silero;
                SileroVad vad = silero;
                FunctionCounter.builder("voice_runtime_vad_windows", vad, v -> v.stats().inferred())
                        .tag("result", "inferred").description("32 ms windows the Silero model judged")
                        .register(registry);
                FunctionCounter.builder("voice_runtime_vad_windows", vad, v -> v.stats().gated())
                        .tag("result", "gated").description("32 ms windows below the energy gate (no inference)")
                        .register(registry);
                FunctionCounter.builder("voice_runtime_vad_windows", vad, v -> v.stats().dropped())
                        .tag("result", "dropped").description("windows dropped because the VAD thread fell behind")
                        .register(registry);
                FunctionCounter.builder("voice_runtime_vad_batches", vad, v -> v.stats().batches())
                        .description("batched Silero inferences").register(registry);
                FunctionCounter.builder("voice_runtime_vad_inference_seconds", vad,
                        v -> v.stats().inferenceNanos() / 1e9).description("time spent in Silero inference")
                        .register(registry);
                Gauge.builder("voice_runtime_vad_detectors", vad, SileroVad::openDetectors)
                        .description("Silero detectors open (one per live call)").register(registry);
            }
            default -> throw new IllegalArgumentException("VOICE_VAD must be silero or energy, not '" + mode + "'");
        }
        LOG.infof("voice activity: %s", this.mode);
    }

    public VoiceDetector.Factory factory() {
        return factory;
    }

    public String mode() {
        return mode;
    }

    /** The Silero engine when that is the mode. */
    public Optional<SileroVad> silero() {
        return Optional.ofNullable(silero);
    }

    @PreDestroy
    void stop() {
        if (silero != null) {
            silero.close();
        }
    }
}
