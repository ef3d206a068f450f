package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.provider.ChatMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CallPlanTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theFrozenAssistantIsReadWithVariablesAndDefaults() throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},
                 "assistant":{"firstMessage":"Hi {{name}}, about {{ topic }}?",
                   "model":{"provider":"openai","model":"gpt-4o-mini","fallbackModels":["gpt-4o"],"temperature":0.2,
                            "maxTokens":120,"messages":[{"role":"system","content":"Help {{name}} with {{missing}}."}]},
                   "voice":{"provider":"11labs","voiceId":"rachel","inputMinCharacters":12},
                   "transcriber":{"provider":"deepgram","language":"en","keywords":["Ada:2"]},
                   "endCallPhrases":["goodbye"],"numWordsToInterruptAssistant":2,"clientMessages":["transcript"]},
                 "variableValues":{"name":"Ada","topic":"bookings"}}"""));
        assertEquals("Hi Ada, about bookings?", plan.firstMessage());
        assertEquals(List.of(new ChatMessage("system", "Help Ada with {{missing}}.")), plan.model().messages());
        assertEquals(List.of("gpt-4o"), plan.model().fallbackModels());
        assertEquals(12, plan.voice().inputMinCharacters());
        assertEquals(CallPlan.DEFAULT_BOUNDARIES, plan.voice().inputPunctuationBoundaries());
        assertEquals(List.of("Ada:2"), plan.transcriber().keywords());
        assertEquals(2, plan.numWordsToInterruptAssistant());
        assertEquals(CallPlan.DEFAULT_SILENCE_TIMEOUT, plan.silenceTimeoutSeconds());
        assertEquals(CallPlan.DEFAULT_RESPONSE_DELAY, plan.responseDelaySeconds());
        assertTrue(plan.assistantSpeaksFirst());
    }

    @Test
    void aSquadStartsWithItsFirstMember() throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"squad":{"members":[{"assistant":{"firstMessageMode":"assistant-waits-for-user",
                 "model":{"provider":"groq","model":"llama"}}}]}}"""));
        assertEquals("groq", plan.model().provider());
        assertFalse(plan.assistantSpeaksFirst());
        assertNull(plan.voice());
        assertEquals("deepgram", plan.transcriber().provider(), "the era's default transcriber");
    }

    @Test
    void theKnowledgeBaseIsReadWithItsTopKBoundedAndADefault() throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"assistant":{"model":{"provider":"openai","model":"gpt-4o",
                 "knowledgeBase":{"provider":"canonical","topK":5,"fileIds":["f1","f2"]}}}}"""));
        assertEquals(new CallPlan.KnowledgeBase(List.of("f1", "f2"), 5), plan.knowledgeBase());
        CallPlan unset = CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"assistant":{"model":{"provider":"openai","model":"gpt-4o",
                 "knowledgeBase":{"provider":"canonical","fileIds":["f1"]}}}}"""));
        assertEquals(CallPlan.DEFAULT_TOP_K, unset.knowledgeBase().topK());
        CallPlan empty = CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"assistant":{"model":{"provider":"openai","model":"gpt-4o",
                 "knowledgeBase":{"provider":"canonical","topK":3,"fileIds":[]}}}}"""));
        assertNull(empty.knowledgeBase(), "no files, nothing to search");
        assertNull(CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"assistant":{"model":{"provider":"openai","model":"gpt-4o"}}}"""))
                .knowledgeBase());
    }

    @Test
    void theModelsToolsAreReadInOrderAndOnlyObjects() throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"assistant":{"model":{"provider":"openai","model":"m","tools":[
                 {"type":"function","function":{"name":"lookup"},"server":{"url":"https://tools.example/x"}},
                 "not a tool",{"type":"endCall"}]}}}"""));
        assertEquals(2, plan.tools().size());
        assertEquals("lookup", plan.tools().get(0).path("function").path("name").asText());
        assertEquals("endCall", plan.tools().get(1).path("type").asText());
        assertTrue(CallPlan.read(UUID.randomUUID(), "org", json.readTree("""
                {"call":{"type":"webCall"},"assistant":{"model":{"provider":"openai","model":"m"}}}""")).tools()
                .isEmpty());
    }
}
