package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/** Speech-to-text settings of an assistant. */
@RegisterForReflection
public record Transcriber(
        @NotNull @ProviderOf(ProviderCatalogue.TRANSCRIBER) String provider,
        String model,
        String language,
        Boolean smartFormat,
        List<@NotNull String> keywords) {
}
