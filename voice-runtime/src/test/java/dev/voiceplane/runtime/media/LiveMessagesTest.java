package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Live messages (docs/voice-runtime.md, "Live messages") through the web-call endpoint with the fake providers:
 * what the assistant's server is sent (the {@code server-message} and {@code hang} events call-service receives) and
 * what the web client gets on its socket, only for the kinds the assistant lists. The hang timeout is 1 s here so that
 * a model slower than it (and quicker than its deadline) shows a hang.
 */
@QuarkusTest
@TestProfile(LiveMessagesTest.ShortHang.class)
class LiveMessagesTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    public static class ShortHang implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voice.runtime.hang-timeout", "1s");
        }
    }

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls() {
        return new StubbedCalls(wireMock);
    }

    private FakeWebCaller webCall(StubbedCalls calls, UUID callId, String org) {
        return FakeWebCaller.connect("ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token="
                + calls.token(callId, org));
    }

    private static List<JsonNode> live(StubbedCalls calls, UUID callId) {
        return calls.events(callId).stream()
                .filter(event -> "server-message".equals(event.path("type").asText()))
                .map(event -> event.path("serverMessage")).toList();
    }

    private static int indexOf(List<JsonNode> messages, java.util.function.Predicate<JsonNode> which, String what) {
        for (int i = 0; i < messages.size(); i++) {
            if (which.test(messages.get(i))) {
                return i;
            }
        }
        throw new AssertionError("no " + what + " in " + messages);
    }

    private static boolean is(JsonNode message, String type, String field, String value) {
        return type.equals(message.path("type").asText()) && value.equals(message.path(field).asText());
    }

    @Test
    void theServerAndTheClientHearTheTurnAsItHappens() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String kinds = "[\"transcript\",\"speech-update\",\"conversation-update\",\"model-output\",\"user-interrupted\"]";
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"serverMessages\":" + kinds + ",\"clientMessages\":" + kinds));
        FakeProviders.deepgram().script("Do you have parking?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Yes, behind the building."));
        try (FakeWebCaller caller = webCall(calls, callId, org)) {
            Eventually.until("the call to start", BOUND, () -> !calls.events(callId).isEmpty());
            caller.say(SpeechFixtures.pcm16k("Do you have parking?")).voiceToVoiceMs(BOUND);
            Eventually.until("the assistant's final transcript", BOUND, () -> live(calls, callId).stream()
                    .anyMatch(m -> is(m, "transcript", "role", "assistant")));
            Eventually.until("the conversation with the reply", BOUND, () -> live(calls, callId).stream()
                    .anyMatch(m -> "conversation-update".equals(m.path("type").asText())
                            && m.path("messages").size() == 2));

            List<JsonNode> server = live(calls, callId);
            int userStarted = indexOf(server, m -> is(m, "speech-update", "role", "user")
                    && "started".equals(m.path("status").asText()), "user speech started");
            int partial = indexOf(server, m -> is(m, "transcript", "transcriptType", "partial"), "partial transcript");
            int userFinal = indexOf(server, m -> is(m, "transcript", "transcriptType", "final")
                    && "user".equals(m.path("role").asText()), "the user's final transcript");
            int firstOutput = indexOf(server, m -> "model-output".equals(m.path("type").asText()), "model output");
            int assistantStarted = indexOf(server, m -> is(m, "speech-update", "role", "assistant")
                    && "started".equals(m.path("status").asText()), "assistant speech started");
            int assistantStopped = indexOf(server, m -> is(m, "speech-update", "role", "assistant")
                    && "stopped".equals(m.path("status").asText()), "assistant speech stopped");
            int assistantFinal = indexOf(server, m -> is(m, "transcript", "role", "assistant"), "assistant transcript");
            assertTrue(userStarted < partial && partial < userFinal && userFinal < firstOutput
                    && firstOutput < assistantStarted && assistantStarted < assistantStopped
                    && assistantStopped < assistantFinal, "in the order it happened: " + server);
            assertEquals("user", server.get(partial).path("role").asText());
            assertEquals("Do you have parking?", server.get(userFinal).path("transcript").asText());
            assertEquals("Yes, behind the building.", server.get(assistantFinal).path("transcript").asText());
            StringBuilder output = new StringBuilder();
            server.stream().filter(m -> "model-output".equals(m.path("type").asText()))
                    .forEach(m -> output.append(m.path("output").asText()));
            assertEquals("Yes, behind the building.", output.toString(), "the model's text, merged or not, in order");

            JsonNode conversation = server.stream().filter(m -> "conversation-update".equals(m.path("type").asText()))
                    .reduce((first, second) -> second).orElseThrow();
            assertEquals("user", conversation.path("messages").path(0).path("role").asText());
            assertEquals("Do you have parking?", conversation.path("messages").path(0).path("message").asText());
            assertEquals("bot", conversation.path("messages").path(1).path("role").asText());
            JsonNode openAi = conversation.path("messagesOpenAIFormatted");
            assertEquals(3, openAi.size(), openAi.toString());
            assertEquals("system", openAi.path(0).path("role").asText());
            assertEquals("You answer for a cafe.", openAi.path(0).path("content").asText());
            assertEquals("user", openAi.path(1).path("role").asText());
            assertEquals("assistant", openAi.path(2).path("role").asText());
            assertEquals("Yes, behind the building.", openAi.path(2).path("content").asText());
            assertFalse(server.stream().anyMatch(m -> "user-interrupted".equals(m.path("type").asText())),
                    "nobody interrupted");

            // The web client got the same kinds on its socket.
            Eventually.until("the client's conversation update", BOUND, () -> caller.messages().stream()
                    .anyMatch(m -> "conversation-update".equals(m.getString("type"))
                            && m.getJsonArray("messages").size() == 2));
            List<JsonObject> client = caller.messages();
            assertTrue(client.stream().anyMatch(m -> "speech-update".equals(m.getString("type"))
                    && "user".equals(m.getString("role")) && "started".equals(m.getString("status"))), client.toString());
            assertTrue(client.stream().anyMatch(m -> "speech-update".equals(m.getString("type"))
                    && "assistant".equals(m.getString("role")) && "stopped".equals(m.getString("status"))));
            assertTrue(client.stream().anyMatch(m -> "transcript".equals(m.getString("type"))
                    && "partial".equals(m.getString("transcriptType")) && "user".equals(m.getString("role"))));
            assertTrue(client.stream().anyMatch(m -> "model-output".equals(m.getString("type"))));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        List<JsonNode> events = calls.events(callId);
        assertEquals("ended", events.get(events.size() - 1).path("type").asText(), "nothing after the end");
    }

    @Test
    void onlyTheListedKindsAreSent() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"serverMessages\":[\"transcript\"],\"clientMessages\":[\"speech-update\"]"));
        FakeProviders.deepgram().script("Are you open late?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Until ten tonight."));
        try (FakeWebCaller caller = webCall(calls, callId, org)) {
            Eventually.until("the call to start", BOUND, () -> !calls.events(callId).isEmpty());
            caller.say(SpeechFixtures.pcm16k("Are you open late?")).voiceToVoiceMs(BOUND);
            Eventually.until("the assistant's final transcript", BOUND, () -> live(calls, callId).stream()
                    .anyMatch(m -> is(m, "transcript", "role", "assistant")));
            Eventually.until("the client's assistant speech stopped", BOUND, () -> caller.messages().stream()
                    .anyMatch(m -> "speech-update".equals(m.getString("type"))
                            && "assistant".equals(m.getString("role")) && "stopped".equals(m.getString("status"))));
            assertTrue(live(calls, callId).stream().allMatch(m -> "transcript".equals(m.path("type").asText())),
                    "the server gets transcripts only: " + live(calls, callId));
            assertTrue(caller.messages().stream().noneMatch(m -> List.of("transcript", "model-output",
                    "conversation-update", "user-interrupted").contains(m.getString("type"))),
                    "the client gets speech updates only: " + caller.messages());
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void aCallerWhoInterruptsIsToldAndAnAssistantThatDoesNotAnswerIsAHang() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"serverMessages\":[\"user-interrupted\",\"hang\"],\"clientMessages\":[\"user-interrupted\",\"hang\"]"));
        FakeProviders.deepgram().script("Tell me about the menu.", "Just the prices please.");
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text("Our menu has many dishes. There are soups and salads. There are sandwiches and"
                        + " wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.")
                : new FakeOpenAi.Text("Everything is under ten pounds."));
        try (FakeWebCaller caller = webCall(calls, callId, org)) {
            Eventually.until("the call to start", BOUND, () -> !calls.events(callId).isEmpty());
            caller.say(SpeechFixtures.pcm16k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 32000);
            // The next answer comes after 2 s: later than the hang timeout (1 s), sooner than the model's deadline.
            FakeProviders.openai().ttftMs(2_000);
            caller.say(SpeechFixtures.pcm16k("Just the prices please.")).bargeInMs(BOUND);
            Eventually.until("user-interrupted at the server", BOUND, () -> live(calls, callId).stream()
                    .anyMatch(m -> "user-interrupted".equals(m.path("type").asText())));
            Eventually.until("a hang at the server", BOUND, () -> calls.events(callId).stream()
                    .anyMatch(event -> "hang".equals(event.path("type").asText())));
            Eventually.until("the late answer", BOUND, () -> calls.transcript(callId).contains(
                    "bot: Everything is under ten pounds."));
            assertTrue(caller.messages().stream().anyMatch(m -> "user-interrupted".equals(m.getString("type"))));
            assertTrue(caller.messages().stream().anyMatch(m -> "hang".equals(m.getString("type"))));
            assertEquals(1, calls.events(callId).stream().filter(e -> "hang".equals(e.path("type").asText())).count(),
                    "one hang for the one slow answer");
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        } finally {
            FakeProviders.openai().ttftMs(0);
        }
    }

    @Test
    void aSlowCallServiceGetsFewerPartialsInOrderAndTheWholeModelOutput() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String kinds = "[\"transcript\",\"speech-update\",\"model-output\"]";
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"serverMessages\":" + kinds + ",\"clientMessages\":" + kinds));
        // call-service answers each event after 300 ms: events wait behind the one in flight.
        wireMock.stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withFixedDelay(300)
                        .withHeader("Content-Type", "application/json")
                        .withBody("{\"recorded\":true,\"applied\":true,\"status\":\"in-progress\"}")));
        String question = "Could you tell me what time you open tomorrow and whether you take bookings for six people?";
        String answer = "We open at nine tomorrow, and yes, we take bookings for six people at any time of the day.";
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(answer));
        try (FakeWebCaller caller = webCall(calls, callId, org)) {
            caller.say(SpeechFixtures.pcm16k(question)).voiceToVoiceMs(BOUND);
            Eventually.until("the assistant's final transcript", BOUND, () -> live(calls, callId).stream()
                    .anyMatch(m -> is(m, "transcript", "role", "assistant")));
            Eventually.until("the assistant's speech to stop at the client", BOUND, () -> caller.messages().stream()
                    .anyMatch(m -> "speech-update".equals(m.getString("type"))
                            && "assistant".equals(m.getString("role")) && "stopped".equals(m.getString("status"))));
            List<String> clientPartials = caller.messages().stream()
                    .filter(m -> "transcript".equals(m.getString("type")) && "partial".equals(m.getString("transcriptType")))
                    .map(m -> m.getString("transcript")).toList();
            List<JsonNode> server = live(calls, callId);
            List<String> serverPartials = server.stream().filter(m -> is(m, "transcript", "transcriptType", "partial"))
                    .map(m -> m.path("transcript").asText()).toList();
            assertTrue(serverPartials.size() < clientPartials.size(),
                    "partials merged while waiting: server " + serverPartials + ", client " + clientPartials);
            assertEquals(clientPartials.get(clientPartials.size() - 1), serverPartials.get(serverPartials.size() - 1),
                    "the newest partial is never dropped");
            for (int i = 1; i < serverPartials.size(); i++) {
                assertTrue(clientPartials.indexOf(serverPartials.get(i - 1)) <= clientPartials.indexOf(serverPartials.get(i)),
                        "never an older partial after a newer one: " + serverPartials);
            }
            StringBuilder output = new StringBuilder();
            server.stream().filter(m -> "model-output".equals(m.path("type").asText()))
                    .forEach(m -> output.append(m.path("output").asText()));
            assertEquals(answer, output.toString(), "model output joined, nothing lost or reordered");
            long clientOutputs = caller.messages().stream().filter(m -> "model-output".equals(m.getString("type"))).count();
            System.out.printf("live messages with a 300 ms call-service: partials %d produced, %d sent; model outputs"
                    + " %d produced, %d sent; %d server messages in all%n", clientPartials.size(), serverPartials.size(),
                    clientOutputs, server.stream().filter(m -> "model-output".equals(m.path("type").asText())).count(),
                    server.size());
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
    }
}
