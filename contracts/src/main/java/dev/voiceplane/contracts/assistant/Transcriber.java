package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;

/**
 * Speech-to-text settings of an assistant: the era's five fields, then the settings of the providers that take them
 * in the hosted platform's published SDK (custom-transcriber's {@code server}, the customer's own transcription server
 * with a write-only {@code secret}; Deepgram's, AssemblyAI's, Azure's, ElevenLabs', Gladia's, Speechmatics' and
 * Soniox's own), checked by {@link ProviderSettings} ({@link TranscriberSettingsValidator},
 * docs/assistants-and-squads.md "Provider settings"). The ranges here are the ones the SDK documents.
 */
@RegisterForReflection
@ProviderSettings
public record Transcriber(
        @NotNull @ProviderOf(ProviderCatalogue.TRANSCRIBER) String provider,
        String model,
        String language,
        Boolean smartFormat,
        List<@NotNull String> keywords,
        @Valid TranscriberServer server,
        // deepgram
        Boolean mipOptOut,
        Boolean numerals,
        Boolean profanityFilter,
        BigDecimal confidenceThreshold,
        BigDecimal eagerEotThreshold,
        BigDecimal eotThreshold,
        BigDecimal eotTimeoutMs,
        List<@NotNull String> keyterm,
        BigDecimal endpointing,
        // assembly-ai
        Boolean formatTurns,
        @DecimalMin("0") @DecimalMax("1") BigDecimal endOfTurnConfidenceThreshold,
        BigDecimal minEndOfTurnSilenceWhenConfident,
        BigDecimal wordFinalizationMaxWaitTime,
        BigDecimal maxTurnSilence,
        Boolean vadAssistedEndpointingEnabled,
        String speechModel,
        List<@NotNull String> wordBoost,
        List<@NotNull @Size(max = 50) String> keytermsPrompt,
        BigDecimal endUtteranceSilenceThreshold,
        Boolean disablePartialTranscripts,
        // azure
        String segmentationStrategy,
        BigDecimal segmentationSilenceTimeoutMs,
        BigDecimal segmentationMaximumTimeMs,
        // 11labs
        @DecimalMin("0.3") @DecimalMax("3") BigDecimal silenceThresholdSeconds,
        @DecimalMin("50") @DecimalMax("2000") BigDecimal minSpeechDurationMs,
        @DecimalMin("50") @DecimalMax("2000") BigDecimal minSilenceDurationMs,
        // gladia
        String languageBehaviour,
        String languages,
        String transcriptionHint,
        Boolean prosody,
        Boolean audioEnhancer,
        @DecimalMin("0") @DecimalMax("1") BigDecimal speechThreshold,
        String region,
        Boolean receivePartialTranscripts,
        // speechmatics
        String operatingPoint,
        Boolean enableDiarization,
        BigDecimal maxDelay,
        List<@NotNull JsonNode> customVocabulary,
        String numeralStyle,
        BigDecimal endOfTurnSensitivity,
        Boolean removeDisfluencies,
        BigDecimal minimumSpeechDuration,
        // soniox
        Boolean languageHintsStrict,
        @DecimalMin("500") @DecimalMax("3000") BigDecimal maxEndpointDelayMs) {
}
