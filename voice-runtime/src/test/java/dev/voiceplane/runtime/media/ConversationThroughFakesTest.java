package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.audio.SileroVad;
import dev.voiceplane.runtime.audio.VoiceDetection;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Whole conversations through the runtime's media endpoints, with the providers as local fakes speaking their real
 * protocols and real speech (espeak-ng) from a fake carrier in real-time 20 ms frames; call-service and
 * credential-service are WireMock. What is checked is what the caller hears and what call-service is told.
 */
@QuarkusTest
class ConversationThroughFakesTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private final MediaTokens tokens = new MediaTokens(TestKeys.MEDIA_TOKEN_KEY);
    private final ObjectMapper json = new ObjectMapper();

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    VoiceDetection voiceDetection;

    private static String assistant(String extra) {
        return AssistantJson.onFakes().model("{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"temperature\":0.3,"
                        + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer for {{business}}.\"}]}")
                .with(extra).json();
    }

    /** A call call-service lets the runtime attach to, in an organisation with keys for the three providers. */
    private String call(UUID callId, String type, String assistant) {
        String org = "org-" + callId;
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"" + type + "\"},\"assistant\":"
                                + assistant + ",\"variableValues\":{\"business\":\"the Harbour Cafe\"}}")));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"recorded\":true,\"applied\":true,\"status\":\"in-progress\"}")));
        StubbedCalls.credentials(wireMock, org, callId.toString(), Map.of("deepgram", FakeProviders.DEEPGRAM_KEY,
                "openai", FakeProviders.OPENAI_KEY, "11labs", FakeProviders.ELEVENLABS_KEY));
        return org;
    }

    private List<JsonNode> events(UUID callId) {
        List<JsonNode> events = new ArrayList<>();
        for (LoggedRequest request : wireMock.findAll(postRequestedFor(
                urlEqualTo("/internal/call/" + callId + "/runtime/events")))) {
            try {
                events.add(json.readTree(request.getBodyAsString()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        events.sort(java.util.Comparator.comparingLong(event -> event.path("sequence").asLong()));
        return events;
    }

    private List<String> transcript(UUID callId) {
        return events(callId).stream().filter(event -> "message".equals(event.path("type").asText()))
                .map(event -> event.path("message").path("role").asText() + ": "
                        + event.path("message").path("message").asText())
                .toList();
    }

    private FakeTwilioCaller phoneCall(UUID callId, String org) {
        return FakeTwilioCaller.connect("ws://localhost:" + RestAssured.port + "/media/stream", Map.of(
                "callId", callId.toString(), "orgId", org,
                "token", tokens.issue(org, callId, Instant.now().plusSeconds(60))));
    }

    @Test
    void aPhoneCallIsHeldFromGreetingToTheEndCallPhrase() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, "inboundPhoneCall", assistant(",\"firstMessage\":\"Harbour Cafe, how can I help?\","
                + "\"endCallPhrases\":[\"goodbye\"]"));
        FakeProviders.deepgram().script("What time do you open tomorrow?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine tomorrow. Goodbye!"));
        // Other classes' web calls ask the same ElevenLabs fake for PCM: this call's requests are the ones after these.
        int spokenBefore = FakeProviders.elevenlabs().requests().size();
        int askedBefore = FakeProviders.openai().requestCount();

        try (FakeTwilioCaller caller = phoneCall(callId, org)) {
            Eventually.until("the greeting", BOUND, () -> transcript(callId).size() == 1);
            assertEquals(List.of("bot: Harbour Cafe, how can I help?"), transcript(callId));
            assertTrue(caller.firstAudioNanos() > 0, "the greeting was heard");
            Eventually.until("the greeting to finish playing", BOUND, () -> !caller.playing()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());

            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("What time do you open tomorrow?"));
            double voiceToVoice = question.voiceToVoiceMs(BOUND);
            assertTrue(voiceToVoice > 0, "the reply was heard after the question ended");

            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up after the end-call phrase");
            assertEquals((short) 1000, closed.code());
        }
        List<JsonNode> events = events(callId);
        assertEquals(List.of("bot: Harbour Cafe, how can I help?", "user: What time do you open tomorrow?",
                "bot: We open at nine tomorrow. Goodbye!"), transcript(callId));
        JsonNode ended = events.get(events.size() - 1);
        assertEquals("ended", ended.path("type").asText(), "ended is the last event");
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText());
        assertTrue(ended.path("usage").path("sttSeconds").asDouble() > 1, ended.toString());
        assertTrue(ended.path("usage").path("llmPromptTokens").asLong() > 0, ended.toString());
        assertTrue(ended.path("usage").path("llmCompletionTokens").asLong() > 0, ended.toString());
        assertEquals("Harbour Cafe, how can I help?".length() + "We open at nine tomorrow.".length()
                + "Goodbye!".length(), ended.path("usage").path("ttsCharacters").asLong());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost");
        }
        // The same usage as lines, one per provider, model and kind: the model's cached prompt tokens apart.
        JsonNode usage = ended.path("usage");
        var requests = FakeProviders.openai().requests();
        requests = requests.subList(askedBefore, requests.size());
        long prompt = requests.stream().mapToLong(FakeOpenAi::promptTokens).sum();
        long cached = requests.stream().mapToLong(FakeOpenAi::cachedTokens).sum();
        assertTrue(cached > 0, "the system prompt is reported cached");
        assertEquals(new java.util.TreeMap<>(Map.of(
                "deepgram - transcription seconds", usage.path("sttSeconds").asDouble(),
                "openai gpt-4o-mini prompt-tokens tokens", prompt - cached,
                "openai gpt-4o-mini cached-prompt-tokens tokens", cached,
                "openai gpt-4o-mini completion-tokens tokens", usage.path("llmCompletionTokens").asLong(),
                "11labs rachel characters characters", usage.path("ttsCharacters").asLong())), UsageLines.of(usage));
        assertEquals(prompt, usage.path("llmPromptTokens").asLong(), "the totals are the lines summed: " + usage);

        // μ-law end to end: the transcriber got the carrier's audio as sent, the voice was asked for μ-law.
        assertEquals("mulaw", FakeProviders.deepgram().lastQuery("encoding"));
        assertEquals("8000", FakeProviders.deepgram().lastQuery("sample_rate"));
        assertEquals("en", FakeProviders.deepgram().lastQuery("language"));
        var request = FakeProviders.openai().lastRequest();
        assertEquals("gpt-4o-mini", request.getString("model"));
        assertEquals(true, request.getBoolean("stream"));
        assertEquals("You answer for the Harbour Cafe.",
                request.getJsonArray("messages").getJsonObject(0).getString("content"));
        assertEquals("What time do you open tomorrow?", FakeOpenAi.lastUserMessage(request));
        var spoken = FakeProviders.elevenlabs().requests();
        spoken = spoken.subList(spokenBefore, spoken.size());
        assertFalse(spoken.isEmpty(), "the voice was asked");
        assertTrue(spoken.stream()
                .allMatch(asked -> "ulaw_8000".equals(asked.outputFormat()) && "rachel".equals(asked.voiceId())),
                spoken.toString());
    }

    @Test
    void theCallerInterruptsAndTheAssistantStops() throws Exception {
        callerInterrupts(assistant(",\"firstMessageMode\":\"assistant-waits-for-user\""));
    }

    @Test
    void theCallerInterruptsWithTheEraDefaultDelays() throws Exception {
        callerInterrupts(assistant(",\"firstMessageMode\":\"assistant-waits-for-user\"").replace(
                "\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0",
                "\"responseDelaySeconds\":0.4,\"llmRequestDelaySeconds\":0.1"));
    }

    /** The caller talks over a long reply: the reply stops, and the transcript and the model keep what was heard. */
    private void callerInterrupts(String assistant) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, "inboundPhoneCall", assistant);
        FakeProviders.deepgram().script("Tell me about the menu.", "Just the prices please.");
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text("Our menu has many dishes. There are soups and salads. There are sandwiches and"
                        + " wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.")
                : new FakeOpenAi.Text("Everything is under ten pounds."));

        try (FakeTwilioCaller caller = phoneCall(callId, org)) {
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("Tell me about the menu."));
            question.voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND,
                    () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> transcript(callId).size() == 4);
        }
        List<String> transcript = transcript(callId);
        assertEquals("user: Tell me about the menu.", transcript.get(0));
        assertTrue(transcript.get(1).startsWith("bot: Our menu"), transcript.toString());
        assertTrue(transcript.get(1).length() < "bot: Our menu has many dishes. There are soups and salads. There are"
                .length() + 60, "the interrupted reply keeps what was played: " + transcript.get(1));
        assertEquals("user: Just the prices please.", transcript.get(2));
        assertEquals("bot: Everything is under ten pounds.", transcript.get(3));
        var second = FakeProviders.openai().lastRequest().getJsonArray("messages");
        assertEquals(transcript.get(1).substring(5), second.getJsonObject(second.size() - 2).getString("content"),
                "the model hears only what the caller heard");
    }

    @Test
    void aFailingModelEndsTheCallWithAReasonAndKeepsWhatWasSaid() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, "inboundPhoneCall", assistant(",\"firstMessage\":\"Hello.\""));
        FakeProviders.deepgram().script("Are you there?");
        FakeProviders.openai().script(request -> new FakeOpenAi.HttpError(500, "the model is down"));
        try (FakeTwilioCaller caller = phoneCall(callId, org)) {
            Eventually.until("the greeting", BOUND, () -> transcript(callId).size() == 1);
            caller.say(SpeechFixtures.mulaw8k("Are you there?"));
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime());
        }
        List<JsonNode> events = events(callId);
        JsonNode ended = events.get(events.size() - 1);
        assertEquals("assistant-error", ended.path("endedReason").asText());
        List<String> transcript = transcript(callId);
        assertEquals("bot: Hello.", transcript.get(0));
        assertEquals("user: Are you there?", transcript.get(1));
        assertTrue(transcript.get(2).startsWith("system: The call ended: the model (openai) failed"), transcript.toString());
    }

    @Test
    void aWebCallTalksPcmAndGetsItsTranscriptMessages() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, "webCall", assistant(",\"firstMessage\":\"Hi, web caller.\","
                + "\"clientMessages\":[\"transcript\"]"));
        FakeProviders.deepgram().script("Do you have parking?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Yes, behind the building."));
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token="
                + tokens.issue(org, callId, Instant.now().plusSeconds(60));
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            Eventually.until("the greeting", BOUND, () -> transcript(callId).size() == 1);
            Eventually.until("the greeting to finish playing", BOUND, () -> !caller.playing()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.pcm16k("Do you have parking?")).voiceToVoiceMs(BOUND);
            Eventually.until("the reply's transcript message", BOUND, () -> caller.messages().stream()
                    .anyMatch(message -> "Yes, behind the building.".equals(message.getString("transcript"))));
            assertTrue(caller.messages().stream().anyMatch(message -> "started".equals(message.getString("type"))));
            assertTrue(caller.messages().stream().anyMatch(message -> "user".equals(message.getString("role"))
                    && "Do you have parking?".equals(message.getString("transcript"))));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> events(callId).stream()
                .anyMatch(event -> "ended".equals(event.path("type").asText())));
        assertEquals("customer-ended-call", events(callId).get(events(callId).size() - 1).path("endedReason").asText());
        assertEquals("linear16", FakeProviders.deepgram().lastQuery("encoding"));
        assertEquals("16000", FakeProviders.deepgram().lastQuery("sample_rate"));
        assertFalse(FakeProviders.elevenlabs().requests().isEmpty());
        assertEquals("pcm_16000", FakeProviders.elevenlabs().requests()
                .get(FakeProviders.elevenlabs().requests().size() - 1).outputFormat());
    }

    @Test
    void anEndedCallLeavesNoVoiceDetectorOpen() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, "webCall", assistant(",\"firstMessage\":\"Hello.\""));
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token="
                + tokens.issue(org, callId, Instant.now().plusSeconds(60));
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            Eventually.until("the greeting", BOUND, () -> transcript(callId).size() == 1);
            if (voiceDetection.silero().isPresent()) {
                assertTrue(voiceDetection.silero().get().openDetectors() >= 1, "the live call has its detector");
            }
            caller.say(SpeechFixtures.pcm16k("Hello there."));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> events(callId).stream()
                .anyMatch(event -> "ended".equals(event.path("type").asText())));
        // Other tests' calls may still be ending; none is left open once they have.
        Eventually.until("every ended call's detector to be freed", BOUND,
                () -> voiceDetection.silero().map(SileroVad::openDetectors).orElse(0) == 0);
    }

    @Test
    void aCallServiceOfThePreviousReleaseGetsTheUsageTotalsAlone() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, "webCall", assistant(",\"firstMessage\":\"Hello.\""));
        // A call-service that knows no lines refuses them as an unknown property, as its request reader does.
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/events")).atPriority(1)
                .withRequestBody(containing("\"lines\""))
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":[\"usage.property lines should not exist\"],\"error\":\"Bad Request\","
                                + "\"statusCode\":400}")));
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token="
                + tokens.issue(org, callId, Instant.now().plusSeconds(60));
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            Eventually.until("the greeting", BOUND, () -> transcript(callId).size() == 1);
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the ended event without lines", BOUND, () -> events(callId).stream()
                .anyMatch(event -> "ended".equals(event.path("type").asText()) && !event.path("usage").has("lines")));
        List<JsonNode> ended = events(callId).stream().filter(event -> "ended".equals(event.path("type").asText()))
                .toList();
        assertEquals(2, ended.size(), "refused with its lines, then sent with the totals: " + ended);
        assertTrue(ended.get(0).path("usage").has("lines"), ended.toString());
        assertEquals(ended.get(0).path("sequence"), ended.get(1).path("sequence"), "the same event");
        assertEquals("Hello.".length(), ended.get(1).path("usage").path("ttsCharacters").asLong(), ended.toString());
    }
}
