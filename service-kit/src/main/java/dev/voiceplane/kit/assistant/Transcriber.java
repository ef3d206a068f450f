package dev.voiceplane.kit.assistant;

import dev.voiceplane.kit.catalog.ProviderCatalogue;
import dev.voiceplane.kit.validation.ProviderOf;
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
