package dev.voiceplane.contracts.assistant;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import java.math.BigDecimal;

/** A cartesia voice's {@code generationConfig} (sonic-3), as the published SDK has it. */
@RegisterForReflection
public record CartesiaGenerationConfig(
        BigDecimal speed,
        BigDecimal volume,
        @Valid CartesiaGenerationExperimental experimental) {
}
