package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/** Files the model may draw on; each id must name a file of the caller's organisation (checked with file-service). */
@RegisterForReflection
public record KnowledgeBase(
        @NotNull @ProviderOf(ProviderCatalogue.KNOWLEDGE_BASE) String provider,
        @DecimalMin("1") @DecimalMax("10") BigDecimal topK,
        @NotNull List<@NotNull String> fileIds) {
}
