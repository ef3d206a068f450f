package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.ProviderOf;
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
