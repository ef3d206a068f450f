package dev.voiceplane.contracts.assistant;

import dev.voiceplane.contracts.catalog.ProviderCatalogue;
import dev.voiceplane.contracts.catalog.ProviderOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.util.List;

/**
 * Text-to-speech settings of an assistant. The era's fields (the first seven) hold for every provider, {@code voiceId}
 * required but for custom-voice; the others are settings of the providers that take them in the hosted platform's
 * published SDK, checked by {@link ProviderSettings} ({@link VoiceSettingsValidator}, docs/assistants-and-squads.md
 * "Provider settings"): {@code cachingEnabled} (every voice), {@code model}, {@code language}, Cartesia's
 * {@code experimentalControls}, {@code generationConfig} and {@code pronunciationDictId}, Deepgram's
 * {@code mipOptOut}, ElevenLabs' voice settings, OpenAI's {@code instructions}, Rime's bracket and latency flags, and
 * custom-voice's {@code server} (the customer's own speech server; its {@code secret} is write-only,
 * {@link AssistantSecrets}).
 */
@RegisterForReflection
@ProviderSettings
public record Voice(
        Boolean inputPreprocessingEnabled,
        @DecimalMin("1") @DecimalMax("80") BigDecimal inputMinCharacters,
        List<@NotNull String> inputPunctuationBoundaries,
        Boolean fillerInjectionEnabled,
        @NotNull @ProviderOf(ProviderCatalogue.VOICE) String provider,
        String voiceId,
        BigDecimal speed,
        Boolean cachingEnabled,
        String model,
        String language,
        @Valid CartesiaExperimentalControls experimentalControls,
        @Valid CartesiaGenerationConfig generationConfig,
        String pronunciationDictId,
        Boolean mipOptOut,
        BigDecimal stability,
        BigDecimal similarityBoost,
        BigDecimal style,
        Boolean useSpeakerBoost,
        BigDecimal optimizeStreamingLatency,
        Boolean enableSsmlParsing,
        Boolean autoMode,
        String instructions,
        Boolean pauseBetweenBrackets,
        Boolean phonemizeBetweenBrackets,
        Boolean reduceLatency,
        String inlineSpeedAlpha,
        @Valid ToolServer server) {
}
