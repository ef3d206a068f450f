package dev.voiceplane.assistant.api;

import dev.voiceplane.assistant.api.constraint.ProviderCatalogue;
import dev.voiceplane.assistant.api.constraint.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/** Text-to-speech settings of an assistant. */
@RegisterForReflection
public record Voice(
        Boolean inputPreprocessingEnabled,
        @DecimalMin("1") @DecimalMax("80") BigDecimal inputMinCharacters,
        List<@NotNull String> inputPunctuationBoundaries,
        Boolean fillerInjectionEnabled,
        @NotNull @ProviderOf(ProviderCatalogue.VOICE) String provider,
        @NotNull String voiceId,
        BigDecimal speed) {
}
