package dev.voiceplane.call.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What the code decides with, read from a frozen assistant as stored: given fields, defaults, and odd shapes. */
class AssistantSettingsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static AssistantSettings of(String assistant) throws Exception {
        return AssistantSettings.of(JSON.readTree(assistant));
    }

    @Test
    void anAssistantThatSaysNothingGetsTheDefaults() throws Exception {
        AssistantSettings settings = of("{}");
        assertEquals(OptionalInt.empty(), settings.maxDurationSeconds());
        assertEquals(1800, settings.maxDurationSeconds(1800));
        assertEquals(List.of("end-of-call-report", "status-update", "hang", "tool-calls"), settings.serverMessages());
        assertTrue(settings.asks("tool-calls"));
        assertEquals(Optional.empty(), settings.voicemailDetectionTypes());
        assertFalse(settings.leavesVoicemailMessage());
        assertEquals(Optional.empty(), settings.systemPrompt());
        assertTrue(settings.providers().isEmpty());
        AssistantSettings.AnalysisPlan plan = settings.analysisPlan();
        assertEquals("PassFail", plan.successEvaluationRubric());
        assertFalse(plan.structuredDataAsked());
        assertEquals(Optional.empty(), plan.summaryPrompt());
    }

    @Test
    void theFieldsTheAssistantGivesAreRead() throws Exception {
        AssistantSettings settings = of("""
                {"maxDurationSeconds": 600, "serverMessages": ["status-update"],
                 "voicemailDetection": {"provider": "twilio", "voicemailDetectionTypes": ["machine_end_beep", "fax"]},
                 "voicemailMessage": "Please call back.",
                 "transcriber": {"provider": "deepgram"},
                 "model": {"provider": "openai", "model": "gpt-4o", "messages": [
                     {"role": "user", "content": "hi"}, {"role": "system", "content": "You sell tea."},
                     {"role": "system", "content": "second"}]},
                 "voice": {"provider": "openai"},
                 "analysisPlan": {"summaryPrompt": "Sum up.", "successEvaluationRubric": "NumericScale",
                     "successEvaluationPrompt": "  ", "structuredDataSchema": {"type": "object"}}}
                """);
        assertEquals(600, settings.maxDurationSeconds(1800));
        assertEquals(List.of("status-update"), settings.serverMessages());
        assertFalse(settings.asks("tool-calls"));
        assertEquals(Optional.of(List.of("machine_end_beep", "fax")), settings.voicemailDetectionTypes());
        assertTrue(settings.leavesVoicemailMessage());
        assertEquals(Optional.of("You sell tea."), settings.systemPrompt());
        // In order, each once: the runtime fetches one key per provider.
        assertEquals(List.of("deepgram", "openai"), List.copyOf(settings.providers()));
        AssistantSettings.AnalysisPlan plan = settings.analysisPlan();
        assertEquals(Optional.of("Sum up."), plan.summaryPrompt());
        assertEquals(Optional.empty(), plan.successEvaluationPrompt(), "a blank prompt takes the default");
        assertEquals("NumericScale", plan.successEvaluationRubric());
        assertTrue(plan.structuredDataAsked());
        assertEquals(JSON.readTree("{\"type\":\"object\"}"), plan.structuredDataSchema().orElseThrow());
        assertEquals(Optional.empty(), plan.structuredDataPrompt());
    }

    @Test
    void oddShapesFallBackAsTheTreeReadsDid() throws Exception {
        AssistantSettings settings = of("""
                {"maxDurationSeconds": "600", "serverMessages": "hang", "voicemailMessage": "   ",
                 "voicemailDetection": {"voicemailDetectionTypes": "machine_start"},
                 "model": {"provider": 7}, "analysisPlan": {"structuredDataPrompt": null}}
                """);
        assertEquals(1800, settings.maxDurationSeconds(1800), "only a number is a duration");
        assertEquals(AssistantSettings.DEFAULT_SERVER_MESSAGES, settings.serverMessages());
        assertFalse(settings.leavesVoicemailMessage(), "a blank message is none");
        assertEquals(Optional.empty(), settings.voicemailDetectionTypes());
        assertTrue(settings.providers().isEmpty());
        // A plan that names the structured-data prompt, even as null, asks for structured data (default prompt).
        assertTrue(settings.analysisPlan().structuredDataAsked());
        assertEquals(Optional.empty(), settings.analysisPlan().structuredDataPrompt());
        JsonNode empty = JSON.createArrayNode();
        assertEquals(List.of(), AssistantSettings.of(JSON.createObjectNode().set("serverMessages", empty))
                .serverMessages(), "an empty list asks for nothing");
    }

    @Test
    void theServerAndTheVoicemailDetectionAreRead() throws Exception {
        AssistantSettings settings = of("""
                {"server": {"url": "https://example.com/a", "secret": "s", "headers": {"X-A": "1"}, "timeoutSeconds": 3},
                 "voicemailDetection": {"provider": "twilio", "machineDetectionTimeout": 30}}
                """);
        assertEquals("https://example.com/a", settings.server().orElseThrow().url());
        assertEquals("s", settings.server().get().secret());
        assertEquals(java.util.Map.of("X-A", "1"), settings.server().get().headers());
        assertEquals(java.time.Duration.ofSeconds(3), settings.server().get().timeout());
        // Handed to telephony-service's dial as the client wrote it.
        assertEquals(JSON.readTree("{\"provider\": \"twilio\", \"machineDetectionTimeout\": 30}"),
                settings.voicemailDetection().orElseThrow());

        AssistantSettings none = of("{\"serverUrl\": \"\", \"voicemailDetection\": \"off\"}");
        assertEquals(Optional.empty(), none.server(), "an empty URL is no server");
        assertEquals(Optional.empty(), none.voicemailDetection(), "only an object is a detection setting");
    }
}
