package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.fake.DtmfDecoder;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tools through the media endpoints: the model (the fake OpenAI) calls a tool, the runtime runs it and the caller
 * hears the outcome. What is checked is what the caller hears, what call-service is told, and what the model is
 * sent (the tools offered, its calls and their results in the history).
 */
@QuarkusTest
class ToolCallsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;

    @BeforeEach
    void setUp() {
        calls = new StubbedCalls(wireMock);
    }

    @AfterEach
    void tearDown() {
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
    }

    /** An assistant on the fake providers whose model has {@code tools} (a JSON array). */
    static String assistant(String tools, String extra) {
        return AssistantJson.onFakes().model(AssistantJson.cafeModel(",\"tools\":" + tools))
                .with(",\"firstMessageMode\":\"assistant-waits-for-user\"" + extra).json();
    }

    /** The model calls a tool at the question {@code question}, then answers the result with {@code then}. */
    static Function<JsonObject, FakeOpenAi.Reply> callsThen(String question, FakeOpenAi.Reply call,
            Function<String, String> then) {
        return request -> {
            JsonArray messages = request.getJsonArray("messages");
            JsonObject last = messages.getJsonObject(messages.size() - 1);
            if ("tool".equals(last.getString("role"))) {
                return FakeOpenAi.Reply.text(then.apply(last.getString("content")));
            }
            return question.equals(FakeOpenAi.lastUserMessage(request)) ? call
                    : FakeOpenAi.Reply.text("You said: " + FakeOpenAi.lastUserMessage(request) + ".");
        };
    }

    /** The requests the fake model got in the call whose caller said {@code question}. */
    static List<JsonObject> requestsAbout(String question) {
        return FakeProviders.openai().requests().stream()
                .filter(request -> question.equals(FakeOpenAi.lastUserMessage(request))).toList();
    }

    private JsonNode ended(UUID callId) {
        Eventually.until("the ended event", BOUND, () -> calls.ended(callId) != null);
        return calls.ended(callId);
    }

    @Test
    void endCallEndsTheCallAfterTheGoodbyeIsPlayed() throws Exception {
        String question = "That will be all for today.";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("[{\"type\":\"endCall\",\"messages\":[{\"type\":\"request-start\","
                + "\"content\":\"Goodbye, and thanks for calling.\"}]}]", ""));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, FakeOpenAi.Reply.toolCall("endCall", "{}"),
                result -> "This is never asked for."));

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up");
            assertTrue(caller.playedAudio().length > 8000, "the goodbye was heard before the end");
            assertEquals(caller.receivedMarks().size(), caller.echoedMarks().size(),
                    "every piece of the goodbye had played when the call ended");
        }
        assertEquals(List.of("user: " + question, "bot: Goodbye, and thanks for calling."), calls.transcript(callId));
        assertEquals("assistant-ended-call", ended(callId).path("endedReason").asText());
        List<JsonObject> requests = requestsAbout(question);
        assertEquals(1, requests.size(), "the model is not asked again after endCall");
        JsonArray tools = requests.get(0).getJsonArray("tools");
        assertEquals(1, tools.size());
        assertEquals("function", tools.getJsonObject(0).getString("type"));
        assertEquals("endCall", tools.getJsonObject(0).getJsonObject("function").getString("name"));
    }

    @Test
    void endCallWithTheModelsOwnGoodbyeWithoutAMessage() throws Exception {
        String question = "Nothing more for me today.";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("[{\"type\":\"endCall\"}]", ""));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, new FakeOpenAi.ToolCalls(List.of(
                new FakeOpenAi.ToolCall("call_end", "endCall", "{}"))), result -> "unused"));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            assertTrue(caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS).byRuntime());
        }
        assertEquals("assistant-ended-call", ended(callId).path("endedReason").asText());
        assertEquals(List.of("user: " + question), calls.transcript(callId), "nothing was said, nothing is made up");
    }

    @Test
    void dtmfPlaysTheKeysInBandAndTheModelGoesOn() throws Exception {
        String question = "Please press one and then hash.";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("[{\"type\":\"dtmf\"}]", ""));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, FakeOpenAi.Reply.toolCall("dtmf", "{\"digits\":\"1#\"}"),
                result -> "Done, I pressed them."));

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the model's words after the tones", BOUND, () -> calls.transcript(callId).size() == 2);
            assertEquals("1#", DtmfDecoder.decode(caller.receivedAudio(), AudioFormat.ULAW_8K),
                    "the caller heard the keys, in order");
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals(List.of("user: " + question, "bot: Done, I pressed them."), calls.transcript(callId));
        List<JsonObject> requests = requestsAbout(question);
        assertEquals(2, requests.size(), "the model is asked again with the result");
        JsonArray history = requests.get(1).getJsonArray("messages");
        JsonObject asked = history.getJsonObject(history.size() - 2);
        assertEquals("assistant", asked.getString("role"));
        JsonObject toolCall = asked.getJsonArray("tool_calls").getJsonObject(0);
        assertEquals("dtmf", toolCall.getJsonObject("function").getString("name"));
        assertEquals("{\"digits\":\"1#\"}", toolCall.getJsonObject("function").getString("arguments"),
                "the arguments streamed in fragments arrive whole");
        JsonObject result = history.getJsonObject(history.size() - 1);
        assertEquals("tool", result.getString("role"));
        assertEquals(toolCall.getString("id"), result.getString("tool_call_id"));
        assertEquals("Sent the keypad tones 1#.", result.getString("content"));
    }

    @Test
    void dtmfRefusesKeysThatAreNotKeys() throws Exception {
        String question = "Press the letter e please.";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("[{\"type\":\"dtmf\"}]", ""));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, FakeOpenAi.Reply.toolCall("dtmf", "{\"digits\":\"e\"}"),
                result -> result.startsWith("Error:") ? "I cannot press that key." : "Pressed."));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the model's answer to the refusal", BOUND, () -> calls.transcript(callId).size() == 2);
            assertEquals("", DtmfDecoder.decode(caller.receivedAudio(), AudioFormat.ULAW_8K), "no tone was played");
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals("bot: I cannot press that key.", calls.transcript(callId).get(1));
    }

    /** call-service (WireMock) answers the call's tool calls with {@code answer} after {@code delayMillis}. */
    private void toolCallsAnswer(UUID callId, String answer, int delayMillis) {
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody(answer)
                        .withFixedDelay(delayMillis)));
    }

    private static String lookupTool(String extra) {
        return "[{\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"description\":\"Finds an order.\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"number\"}}}},"
                + "\"server\":{\"url\":\"https://tools.example.com/orders\"}" + extra + "}]";
    }

    private static FakeOpenAi.Reply lookup(String id) {
        return new FakeOpenAi.ToolCalls(List.of(new FakeOpenAi.ToolCall(id, "lookup_order", "{\"order\":42}")));
    }

    @Test
    void aFunctionToolsResultIsSpokenByTheModel() throws Exception {
        String question = "Where is my order number forty two?";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(lookupTool(",\"messages\":[{\"type\":\"request-start\","
                + "\"content\":\"Let me look that up.\"},{\"type\":\"request-start\",\"content\":\"A big order!\","
                + "\"conditions\":[{\"param\":\"order\",\"operator\":\"gt\",\"value\":100}]}]"), ""));
        toolCallsAnswer(callId, "{\"results\":[{\"toolCallId\":\"call_lookup_1\",\"name\":\"lookup_order\","
                + "\"result\":\"Order 42 ships tomorrow.\"}]}", 0);
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, lookup("call_lookup_1"),
                result -> result.contains("ships tomorrow") ? "It ships tomorrow." : "I do not know."));

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the answer with the tool's result", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals(List.of("user: " + question, "bot: Let me look that up. It ships tomorrow."),
                calls.transcript(callId), "the request-start message, then the model's answer with the result");
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.equalToJson(
                        "{\"toolCallList\":[{\"id\":\"call_lookup_1\",\"type\":\"function\",\"function\":"
                                + "{\"name\":\"lookup_order\",\"arguments\":\"{\\\"order\\\":42}\"}}]}")));
        List<JsonObject> requests = requestsAbout(question);
        assertEquals(2, requests.size());
        JsonObject offered = requests.get(0).getJsonArray("tools").getJsonObject(0).getJsonObject("function");
        assertEquals("lookup_order", offered.getString("name"));
        assertEquals("Finds an order.", offered.getString("description"));
        assertEquals("number", offered.getJsonObject("parameters").getJsonObject("properties")
                .getJsonObject("order").getString("type"));
        JsonArray history = requests.get(1).getJsonArray("messages");
        assertEquals("Order 42 ships tomorrow.", history.getJsonObject(history.size() - 1).getString("content"));
    }

    @Test
    void aFailingToolIsToldToTheModelAndTheCallGoesOn() throws Exception {
        String question = "Can you check order forty two for me?";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(lookupTool(",\"messages\":[{\"type\":\"request-failed\","
                + "\"content\":\"Sorry, the order system is down.\"},{\"type\":\"request-complete\","
                + "\"content\":\"Never said.\"}]"), ""));
        toolCallsAnswer(callId, "{\"results\":[{\"toolCallId\":\"call_lookup_2\",\"name\":\"lookup_order\","
                + "\"error\":\"the tool's server answered 500\"}]}", 0);
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, lookup("call_lookup_2"),
                result -> result.startsWith("Error: the tool's server answered 500") ? "Please try later." : "Odd."));

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the answer after the failure", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals("bot: Sorry, the order system is down. Please try later.", calls.transcript(callId).get(1));
        assertEquals("customer-ended-call", ended(callId).path("endedReason").asText(), "the call went on");
    }

    @Test
    void callServiceNotAnsweringIsAFailureForTheModel() throws Exception {
        String question = "Is my order forty two ready?";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(lookupTool(""), ""));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls")).willReturn(aResponse()
                .withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER)));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, lookup("call_lookup_3"),
                result -> result.startsWith("Error: the tool could not be called") ? "I cannot check now." : "Odd."));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the answer after the failure", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals("bot: I cannot check now.", calls.transcript(callId).get(1));
    }

    @Test
    void aSlowToolHasItsDelayedMessageSpokenWhileTheCallerWaits() throws Exception {
        String question = "When does order forty two arrive?";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(lookupTool(",\"messages\":[{\"type\":\"request-response-delayed\","
                + "\"content\":\"Still looking.\",\"timingMilliseconds\":200}]"), ""));
        toolCallsAnswer(callId, "{\"results\":[{\"toolCallId\":\"call_lookup_4\",\"result\":\"Friday.\"}]}", 2500);
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, lookup("call_lookup_4"), result -> "It arrives " + result));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the answer", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals("bot: Still looking. It arrives Friday.", calls.transcript(callId).get(1));
    }

    @Test
    void anAsyncToolIsNotWaitedFor() throws Exception {
        String question = "Please send me the menu by text.";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("[{\"type\":\"function\",\"async\":true,\"function\":"
                + "{\"name\":\"send_menu\"},\"server\":{\"url\":\"https://tools.example.com/menu\"}}]", ""));
        // call-service would answer long after the model was asked again.
        toolCallsAnswer(callId, "{\"results\":[{\"toolCallId\":\"call_menu\",\"result\":\"sent\"}]}", 10_000);
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, new FakeOpenAi.ToolCalls(List.of(
                new FakeOpenAi.ToolCall("call_menu", "send_menu", "{}"))), result -> "It is on its way."));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the answer", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls")));
        JsonArray history = requestsAbout(question).get(1).getJsonArray("messages");
        assertTrue(history.getJsonObject(history.size() - 1).getString("content").startsWith("The tool was started."),
                history.encode());
    }

    @Test
    void twoCallsInOneAnswerRunTogetherTheKeysThenTheEnd() throws Exception {
        String question = "Press nine for me and then hang up.";
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("[{\"type\":\"dtmf\"},{\"type\":\"endCall\"}]", ""));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(callsThen(question, new FakeOpenAi.ToolCalls(List.of(
                new FakeOpenAi.ToolCall("call_keys", "dtmf", "{\"digits\":\"9\"}"),
                new FakeOpenAi.ToolCall("call_bye", "endCall", "{}"))), result -> "unused"));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            assertTrue(caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS).byRuntime());
            assertEquals("9", DtmfDecoder.decode(caller.receivedAudio(), AudioFormat.ULAW_8K),
                    "the tones were played before the end");
        }
        assertEquals("assistant-ended-call", ended(callId).path("endedReason").asText());
        assertEquals(1, requestsAbout(question).size(), "a batch that ends the call does not ask the model again");
    }
}
