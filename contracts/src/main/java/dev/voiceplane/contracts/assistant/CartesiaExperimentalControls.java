package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A cartesia voice's {@code experimentalControls}, as the published SDK has them: {@code speed} one of its words
 * ({@code slowest} ... {@code fastest}) or a number, {@code emotion} one of its values; checked by
 * {@link VoiceSettingsValidator}.
 */
@RegisterForReflection
public record CartesiaExperimentalControls(
        JsonNode speed,
        String emotion) {
}
