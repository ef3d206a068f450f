package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.kit.validation.OneOf;
import dev.voiceplane.contracts.catalog.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/** Answering-machine detection on outbound calls (the carrier's; twilio's ranges). */
@RegisterForReflection
public record VoicemailDetection(
        @ProviderOf(ProviderCatalogue.VOICEMAIL_DETECTION) String provider,
        List<@NotNull @OneOf({"machine_start", "human", "fax", "unknown", "machine_end_beep", "machine_end_silence",
                "machine_end_other"}) String> voicemailDetectionTypes,
        Boolean enabled,
        @DecimalMin("3") @DecimalMax("59") BigDecimal machineDetectionTimeout,
        @DecimalMin("1000") @DecimalMax("6000") BigDecimal machineDetectionSpeechThreshold,
        @DecimalMin("500") @DecimalMax("5000") BigDecimal machineDetectionSpeechEndThreshold,
        @DecimalMin("2000") @DecimalMax("10000") BigDecimal machineDetectionSilenceTimeout) {
}
