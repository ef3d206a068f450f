package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.runtime.audio.VoiceDetection;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every whole conversation of {@link ConversationThroughFakesTest} (greeting to end-call phrase, barge-in with and
 * without the era's delays, a failing model, a web call) again with the energy detector ({@code VOICE_VAD=energy});
 * the default is Silero.
 */
@QuarkusTest
@TestProfile(ConversationThroughFakesEnergyVadTest.EnergyVad.class)
class ConversationThroughFakesEnergyVadTest extends ConversationThroughFakesTest {

    public static class EnergyVad implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voice.runtime.vad.mode", "energy");
        }
    }

    @Inject
    VoiceDetection detection;

    @Test
    void theRuntimeRunsTheEnergyDetector() {
        assertEquals("energy", detection.mode());
        assertTrue(detection.silero().isEmpty(), "no model loaded, no VAD thread");
    }
}
