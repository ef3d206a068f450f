package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.json.JsonArray;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A function tool through the whole stack (docs/voice-runtime.md, "Tools"): a caller on a Twilio number asks, the
 * model calls the assistant's tool, call-service sends the signed {@code tool-calls} message to the organisation's
 * tool server (a fake), and the server's answer reaches the caller as the model's speech.
 */
@ExtendWith(HeldCalls.Shared.class)
class ToolCallsIT {

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    @Test
    void aFunctionToolsAnswerReachesTheCallerAsSpeech() throws Exception {
        String question = "Where is my order number forty two?";
        String answer = "Your order ships tomorrow.";
        String server = calls.server("tools-orders");
        calls.outside().stubFor(post(urlEqualTo("/hooks/tools-orders")).atPriority(1).willReturn(okJson(
                "{\"results\":[{\"toolCallId\":\"call_orders_1\",\"result\":\"Order 42 ships tomorrow.\"}]}")));
        calls.deepgram().script(question);
        calls.openai().script(request -> {
            JsonArray messages = request.getJsonArray("messages");
            var last = messages.getJsonObject(messages.size() - 1);
            if ("tool".equals(last.getString("role"))) {
                return new FakeOpenAi.Text(last.getString("content").contains("ships tomorrow") ? answer
                        : "I could not find it.");
            }
            return question.equals(FakeOpenAi.lastUserMessage(request))
                    ? new FakeOpenAi.ToolCalls(List.of(new FakeOpenAi.ToolCall("call_orders_1", "lookup_order",
                            "{\"order\":42}")))
                    : new FakeOpenAi.Text("Sorry?");
        });
        String assistantId = calls.assistant("{\"name\":\"tools\",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a shop.\"}],\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"lookup_order\",\"parameters\":{\"type\":\"object\",\"properties\":"
                + "{\"order\":{\"type\":\"number\"}}}},\"server\":{\"url\":\"" + server + "\","
                + "\"secret\":\"tool-secret-it\"}}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
                + "\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("tools", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            double voiceToVoice = caller.say(SpeechFixtures.mulaw8k(question))
                    .voiceToVoiceMs(HeldCalls.CONVERSATION_STEP);
            assertTrue(voiceToVoice > 0, "the answer was heard after the question");
            HeldCalls.eventually("the answer to be played out", HeldCalls.CONVERSATION_STEP,
                    () -> !caller.playing() && !caller.receivedMarks().isEmpty()
                            && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 8);
        JsonNode call = calls.endedCall(stream.callId());
        assertEquals(List.of("user: " + question, "bot: " + answer), HeldCalls.messages(call), call.toString());
        assertTrue(calls.elevenlabs().requests().stream().anyMatch(spoken -> spoken.text().contains(answer)),
                "the answer was spoken by the voice");

        List<JsonNode> received = calls.received("tools-orders", stream.callId());
        assertEquals(1, received.size(), received.toString());
        JsonNode message = received.get(0);
        assertEquals("tool-calls", message.path("type").asText());
        assertEquals(42, message.path("toolCallList").path(0).path("function").path("arguments").path("order").asInt());
        assertEquals("lookup_order", message.path("toolWithToolCallList").path(0).path("function").path("name")
                .asText());
        LoggedRequest request = calls.outside().findAll(com.github.tomakehurst.wiremock.client.WireMock
                .postRequestedFor(urlEqualTo("/hooks/tools-orders"))).stream()
                .filter(logged -> logged.getBodyAsString().contains(stream.callId())).findFirst().orElseThrow();
        assertEquals("tool-secret-it", request.getHeader("x-vapi-secret"));
        assertTrue(request.getHeader("webhook-signature").startsWith("v1,"), "signed like every delivery");
    }
}
