package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;

/** {@code generationConfig.experimental}: {@code accentLocalization} 0 (off) or 1 (on), checked by {@link VoiceSettingsValidator}. */
@RegisterForReflection
public record CartesiaGenerationExperimental(BigDecimal accentLocalization) {
}
