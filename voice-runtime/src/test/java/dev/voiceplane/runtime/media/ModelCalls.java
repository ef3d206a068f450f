package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * What the tests of each model provider share: phone calls whose transcriber and voice are the Deepgram and ElevenLabs
 * fakes and whose model is the provider's fake, and the three scenes every model provider is proven by (a
 * conversation with a barge-in, a tool's round trip, a failure that ends the call). The provider's own test scripts
 * its fake and checks what the fake was sent.
 */
final class ModelCalls {

    static final Duration BOUND = Duration.ofSeconds(30);
    static final String GREETING = "Harbour Cafe, how can I help?";
    static final String MENU_QUESTION = "Tell me about the menu.";
    static final String MENU = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
            + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
    static final String INTERRUPTION = "Just the prices please.";
    static final String PRICES = "Everything is under ten pounds. Goodbye!";
    static final String ORDER_QUESTION = "Has my order forty two shipped yet?";
    static final String FAILING_QUESTION = "What time do you open tomorrow?";

    final StubbedCalls calls;
    private final ObjectMapper json = new ObjectMapper();

    /** What a conversation left: its transcript and its {@code ended} event. */
    record Held(List<String> transcript, JsonNode ended) {
    }

    ModelCalls(WireMockServer wireMock) {
        this.calls = new StubbedCalls(wireMock);
    }

    /** An assistant on the fake transcriber and voice whose model object has the JSON members {@code model}. */
    static String assistant(String model, String extra) {
        return AssistantJson.onFakes().model("{" + model + "}").with(extra).json();
    }

    /** The organisation's credentials: the fake transcriber's and voice's keys, and {@code secret} for the model's. */
    static Map<String, String> keys(String modelCredential, String secret) {
        return Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "11labs", FakeProviders.ELEVENLABS_KEY,
                modelCredential, secret);
    }

    /** The reply a scripted model gives to the caller's words {@code said}. */
    static String answer(String said) {
        return MENU_QUESTION.equals(said) ? MENU : INTERRUPTION.equals(said) ? PRICES : "You said: " + said;
    }

    /**
     * The assistant greets, the caller asks about the menu and talks over the long answer, the model answers the
     * interruption with a goodbye (an end-call phrase) and the runtime hangs up. The model must answer as
     * {@link #answer} says. Checks what the caller heard and call-service was told.
     */
    Held converse(String model, Map<String, String> keys) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(model, ",\"firstMessage\":\"" + GREETING + "\","
                + "\"endCallPhrases\":[\"goodbye\"]"), keys);
        FakeProviders.deepgram().script(MENU_QUESTION, INTERRUPTION);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                    && !caller.receivedMarks().isEmpty() && !caller.playing()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            int greeting = caller.playedAudio().length;
            caller.say(SpeechFixtures.mulaw8k(MENU_QUESTION)).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the answer to play", BOUND,
                    () -> caller.playedAudio().length > greeting + 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k(INTERRUPTION));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            interruption.voiceToVoiceMs(BOUND);
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up after the end-call phrase: " + closed);
            assertEquals((short) 1000, closed.code());
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals(5, transcript.size(), transcript.toString());
        assertEquals("bot: " + GREETING, transcript.get(0));
        assertEquals("user: " + MENU_QUESTION, transcript.get(1));
        assertTrue(transcript.get(2).startsWith("bot: Our menu") && transcript.get(2).length() < 5 + MENU.length(),
                "the interrupted answer keeps what was played: " + transcript);
        assertEquals("user: " + INTERRUPTION, transcript.get(3));
        assertEquals("bot: " + PRICES, transcript.get(4));
        List<JsonNode> events = calls.events(callId);
        JsonNode ended = events.get(events.size() - 1);
        assertEquals("ended", ended.path("type").asText(), "ended is the last event");
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost");
        }
        return new Held(transcript, ended);
    }

    /**
     * The caller asks where order 42 is; the model (scripted by the test) calls {@code lookup_order} with
     * {@code {"order":42}}, call-service runs it ("Order 42 ships tomorrow."), and the model's answer to the result,
     * "It ships tomorrow.", is heard after the tool's request-start message. Checks what the caller heard and what
     * call-service was asked; returns the tool call call-service was sent.
     */
    JsonNode toolRoundTrip(WireMockServer wireMock, String model, Map<String, String> keys) throws Exception {
        UUID callId = UUID.randomUUID();
        String tools = "[{\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"description\":\"Finds an"
                + " order.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"number\","
                + "\"description\":\"The order's number.\"}},\"required\":[\"order\"],\"additionalProperties\":false}},"
                + "\"server\":{\"url\":\"https://tools.example.com/orders\"},\"messages\":[{\"type\":"
                + "\"request-start\",\"content\":\"Let me look that up.\"}]}]";
        String org = calls.call(callId, assistant(model + ",\"tools\":" + tools,
                ",\"firstMessageMode\":\"assistant-waits-for-user\""), keys);
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody(
                        "{\"results\":[{\"toolCallId\":\"any\",\"name\":\"lookup_order\","
                                + "\"result\":\"Order 42 ships tomorrow.\"}]}")));
        FakeProviders.deepgram().script(ORDER_QUESTION);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(ORDER_QUESTION));
            Eventually.until("the answer with the tool's result", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals(List.of("user: " + ORDER_QUESTION, "bot: Let me look that up. It ships tomorrow."),
                calls.transcript(callId), "the request-start message, then the model's answer with the result");
        List<LoggedRequest> asked = wireMock.findAll(postRequestedFor(
                urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls")));
        assertEquals(1, asked.size(), "call-service was asked to run the tool once");
        JsonNode call = json.readTree(asked.get(0).getBodyAsString()).path("toolCallList").path(0);
        assertEquals("lookup_order", call.path("function").path("name").asText());
        assertEquals(42, json.readTree(call.path("function").path("arguments").asText()).path("order").asInt(),
                call.toString());
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        return call;
    }

    /**
     * The caller asks, and the model (scripted by the test to fail) ends the call: {@code assistant-error}, the
     * transcript's last line naming the provider, what the caller said kept, {@code ended} last with no event lost,
     * the carrier's stream closed normally after it, a log line naming the provider and the failure's kind, nothing
     * uncaught, the live-calls gauge back at 0.
     */
    void endsWithModelError(String model, Map<String, String> keys, String provider, String kind) throws Exception {
        try (StubbedCalls.LogCapture logs = new StubbedCalls.LogCapture()) {
            UUID callId = UUID.randomUUID();
            String org = calls.call(callId, assistant(model, ",\"firstMessageMode\":\"assistant-waits-for-user\""),
                    keys);
            FakeProviders.deepgram().script(FAILING_QUESTION);
            try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
                caller.say(SpeechFixtures.mulaw8k(FAILING_QUESTION));
                FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
                assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
            }
            JsonNode ended = calls.ended(callId);
            assertNotNull(ended, "ended was reported before the stream was closed");
            List<JsonNode> events = calls.events(callId);
            assertEquals("assistant-error", ended.path("endedReason").asText(), ended.toString());
            assertEquals(ended, events.get(events.size() - 1), "ended is the last event");
            for (int i = 0; i < events.size(); i++) {
                assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost: " + events);
            }
            assertEquals(List.of("user: " + FAILING_QUESTION, "system: The call ended: the model (" + provider
                    + ") failed."), calls.transcript(callId));
            assertTrue(logs.logged("the model (provider " + provider + ") failed"), "a log line names the provider");
            assertTrue(logs.records().stream().map(ModelCalls::logLine).anyMatch(line -> line.contains("(provider "
                    + provider + ") failed") && line.endsWith("(" + kind + ")")), "the log line says the kind, " + kind);
            Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
            assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
        }
    }

    private static String logLine(LogRecord record) {
        return String.valueOf(record instanceof ExtLogRecord extended ? extended.getFormattedMessage()
                : record.getMessage());
    }
}
