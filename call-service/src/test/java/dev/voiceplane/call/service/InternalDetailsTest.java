package dev.voiceplane.call.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The internal part of a call's details, written by {@link Details#keep} at creation and read back into
 * {@link InternalDetails}: what is kept is what is read, and a call that kept nothing gets the defaults.
 */
class InternalDetailsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void whatCreationKeepsIsWhatLaterStepsRead() throws Exception {
        AssistantSettings settings = AssistantSettings.of(JSON.readTree("""
                {"serverMessages": ["hang", "status-update"], "voicemailMessage": "Call us back.",
                 "voicemailDetection": {"voicemailDetectionTypes": ["machine_end_beep"]}}
                """));
        ObjectNode row = JSON.createObjectNode();
        new Details(JSON).keep(row, settings);
        assertEquals(JSON.readTree("""
                {"internal": {"serverMessages": ["hang", "status-update"],
                 "voicemailDetectionTypes": ["machine_end_beep"], "voicemailMessage": true}}
                """), row, "the stored shape is the one earlier calls have");
        InternalDetails kept = InternalDetails.of(row.path(Details.INTERNAL));
        assertTrue(kept.asks("hang"));
        assertFalse(kept.asks("end-of-call-report"));
        assertEquals(Optional.of(List.of("machine_end_beep")), kept.voicemailDetectionTypes());
        assertTrue(kept.leavesVoicemailMessage());
    }

    @Test
    void aCallThatKeptNothingGetsTheDefaults() throws Exception {
        InternalDetails kept = InternalDetails.of(JSON.readTree("{}").path(Details.INTERNAL));
        for (String kind : AssistantSettings.DEFAULT_SERVER_MESSAGES) {
            assertTrue(kept.asks(kind), kind);
        }
        assertFalse(kept.asks("transcript"));
        assertEquals(Optional.empty(), kept.voicemailDetectionTypes());
        assertFalse(kept.leavesVoicemailMessage());
        assertEquals(Optional.empty(), kept.voicemailAnsweredBy());
        assertEquals(Optional.empty(), kept.refusal());
        assertEquals(new InternalDetails.RuntimeUsage(BigDecimal.ZERO, 0, 0, 0), kept.usage());
    }

    @Test
    void whatTheCarrierAndTheRuntimeReportedIsRead() throws Exception {
        InternalDetails kept = InternalDetails.of(JSON.readTree("""
                {"voicemailAnsweredBy": "machine_end_beep", "refusal": "All lines are busy.",
                 "usage": {"sttSeconds": 12.5, "llmPromptTokens": 300, "llmCompletionTokens": 40,
                           "ttsCharacters": 512}}
                """));
        assertEquals(Optional.of("machine_end_beep"), kept.voicemailAnsweredBy());
        assertEquals(Optional.of("All lines are busy."), kept.refusal());
        assertEquals(new InternalDetails.RuntimeUsage(new BigDecimal("12.5"), 300, 40, 512), kept.usage());
    }
}
