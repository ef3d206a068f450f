package dev.voiceplane.runtime.recording;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.conversation.CallPlan;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sound settings as the plan reads them from the frozen assistant. */
class VoiceSettingsTest {

    private static CallPlan plan(String assistant) throws Exception {
        return CallPlan.read(UUID.randomUUID(), "org", new ObjectMapper().readTree(
                "{\"call\":{\"type\":\"webCall\"},\"assistant\":" + assistant + "}"));
    }

    @Test
    void defaultsRecordNothingWithNoBackgroundAndCutTheReply() throws Exception {
        CallPlan plan = plan("{\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"v\"}}");
        assertFalse(plan.sound().recorded());
        assertEquals("off", plan.sound().backgroundSound());
        assertTrue(plan.sound().inputPreprocessingEnabled());
        assertFalse(plan.voice().inputPunctuationBoundaries().isEmpty());
    }

    @Test
    void hipaaOverridesRecording() throws Exception {
        assertTrue(plan("{\"recordingEnabled\":true}").sound().recorded());
        assertFalse(plan("{\"recordingEnabled\":true,\"hipaaEnabled\":true}").sound().recorded());
    }

    @Test
    void withoutInputPreprocessingTheReplyIsNotCut() throws Exception {
        CallPlan plan = plan("{\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"v\",\"inputPreprocessingEnabled\":false,"
                + "\"inputPunctuationBoundaries\":[\".\"]},\"backgroundSound\":\"office\","
                + "\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"emotionRecognitionEnabled\":true}}");
        assertEquals(List.of(), plan.voice().inputPunctuationBoundaries());
        assertEquals("office", plan.sound().backgroundSound());
        assertTrue(plan.sound().emotionRecognitionEnabled());
    }
}
