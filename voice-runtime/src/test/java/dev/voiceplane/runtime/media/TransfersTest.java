package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
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
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code transferCall} through the media endpoints (docs/voice-runtime.md, "Transfers and squads"), with the providers
 * as local fakes and call-service as WireMock: a phone call transferred to a number once the destination's message
 * has played, a transfer that did not happen told to the model, a web call's number refused, and a squad call handed
 * to another member mid-call, heard in that member's voice, and a squad call handed from a cascaded member to a
 * realtime one, whose usage has the lines of both.
 */
@QuarkusTest
class TransfersTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String NUMBER = "+14155550177";
    private static final String MESSAGE = "Transferring you to the front desk now.";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls() {
        return new StubbedCalls(wireMock);
    }

    private static String transferTool() {
        return ",\"firstMessageMode\":\"assistant-waits-for-user\",\"model\":{\"provider\":\"openai\","
                + "\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\",\"content\":\"You answer for a cafe.\"}],"
                + "\"tools\":[{\"type\":\"transferCall\",\"destinations\":[{\"type\":\"number\",\"number\":\"" + NUMBER
                + "\",\"message\":\"" + MESSAGE + "\",\"description\":\"the front desk\"}]}]}";
    }

    /** The assistant with a transfer tool (its model replaces the stub's). */
    private static String assistantWithTransfer() {
        return AssistantJson.onFakes().model(null).with(transferTool()).json();
    }

    /** The model asks for the transfer when the caller wants a person, and otherwise says what it was told. */
    private static FakeOpenAi.Reply transferOrTell(JsonObject request) {
        JsonArray messages = request.getJsonArray("messages");
        JsonObject last = messages.getJsonObject(messages.size() - 1);
        if ("user".equals(last.getString("role"))) {
            return FakeOpenAi.Reply.toolCall("transferCall", "{\"destination\":\"" + NUMBER + "\"}");
        }
        return FakeOpenAi.Reply.text("Sorry, I could not put you through.");
    }

    private void transferAnswers(UUID callId, int status, String body) {
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/transfer"))
                .willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                        .withFixedDelay(300).withBody(body)));
    }

    @Test
    void aPhoneCallIsTransferredToTheNumberOnceTheMessageHasPlayed() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = calls();
        String org = calls.call(callId, assistantWithTransfer());
        transferAnswers(callId, 200, "{\"status\":\"ended\",\"endedReason\":\"assistant-forwarded-call\","
                + "\"forwardedPhoneNumber\":\"" + NUMBER + "\"}");
        FakeProviders.deepgram().script("Can I talk to a person?");
        FakeProviders.openai().script(TransfersTest::transferOrTell);

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Can I talk to a person?"));
            Eventually.until("call-service to be asked to transfer", BOUND, () -> !wireMock.findAll(
                    postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/transfer"))).isEmpty());
            // What Twilio does when the call's TwiML is replaced: the media stream stops at once.
            int played = caller.playedAudio().length;
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            // The whole message had played before the transfer was asked for (20 ms frames: at most one short).
            assertTrue(played >= SpeechFixtures.mulaw8k(MESSAGE).length - 160,
                    "played " + played + " bytes of a " + SpeechFixtures.mulaw8k(MESSAGE).length + "-byte message");
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        // The carrier's stop while the transfer was under way does not make it the customer's end.
        assertEquals("assistant-forwarded-call", calls.ended(callId).path("endedReason").asText());
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/transfer"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .withRequestBody(equalToJson("{\"number\":\"" + NUMBER + "\"}")));
        assertEquals(List.of("user: Can I talk to a person?", "bot: " + MESSAGE), calls.transcript(callId));
        // The model was offered the tool with its destination (the fake serves every test: this call's request).
        JsonObject offered = FakeProviders.openai().requests().stream()
                .filter(request -> FakeOpenAi.lastUserMessage(request).equals("Can I talk to a person?")
                        && request.getJsonArray("tools") != null)
                .reduce((first, second) -> second).orElseThrow();
        assertEquals(1, offered.getJsonArray("tools").size(), offered.encode());
        JsonObject function = offered.getJsonArray("tools").getJsonObject(0).getJsonObject("function");
        assertEquals("transferCall", function.getString("name"));
        assertEquals(NUMBER, function.getJsonObject("parameters").getJsonObject("properties")
                .getJsonObject("destination").getJsonArray("enum").getString(0));
        assertTrue(function.getString("description").contains("the front desk"), function.encode());
    }

    @Test
    void aTransferThatDidNotHappenIsToldToTheModelAndTheCallGoesOn() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = calls();
        String org = calls.call(callId, assistantWithTransfer());
        transferAnswers(callId, 422, "{\"message\":\"the carrier refused the transfer; the call was not transferred\","
                + "\"error\":\"Unprocessable Entity\",\"statusCode\":422}");
        FakeProviders.deepgram().script("Can I talk to a person?");
        FakeProviders.openai().script(TransfersTest::transferOrTell);

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Can I talk to a person?"));
            Eventually.until("the model to say the transfer failed", BOUND,
                    () -> calls.transcript(callId).contains("bot: Sorry, I could not put you through."));
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
        JsonObject told = FakeProviders.openai().lastRequest();
        assertTrue(told.encode().contains("The transfer did not happen"), told.encode());
    }

    @Test
    void aWebCallCannotBeTransferredToANumberAndTheModelIsTold() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = calls();
        String org = calls.call(callId, assistantWithTransfer());
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"webCall\"},\"assistant\":"
                                + assistantWithTransfer() + ",\"variableValues\":{}}")));
        FakeProviders.deepgram().script("Can I talk to a person?");
        FakeProviders.openai().script(TransfersTest::transferOrTell);
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            caller.say(SpeechFixtures.pcm16k("Can I talk to a person?"));
            Eventually.until("the model to answer without a transfer", BOUND,
                    () -> calls.transcript(callId).contains("bot: Sorry, I could not put you through."));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertTrue(FakeProviders.openai().lastRequest().encode().contains("web call"),
                "the tool's result tells the model why");
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/transfer")));
    }

    @Test
    void aSquadCallIsHandedToAnotherMemberMidCallAndHeardInItsVoice() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = calls();
        String frontDesk = "{\"name\":\"Front desk\",\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You are the front desk of {{business}}.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
                + "\"firstMessage\":\"Front desk, how can I help?\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";
        String billing = "{\"name\":\"Billing\",\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en-GB\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You handle billing for {{business}}.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"adam\",\"inputMinCharacters\":10},"
                + "\"firstMessage\":\"Billing here, {{name}}.\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";
        String org = calls.call(callId, frontDesk);
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                + frontDesk + ",\"squad\":{\"members\":[{\"assistant\":" + frontDesk
                                + ",\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\","
                                + "\"message\":\"Let me pass you to billing.\",\"description\":\"invoices\"}]},"
                                + "{\"assistant\":" + billing + ",\"variableValues\":{\"business\":\"the Harbour Cafe\","
                                + "\"name\":\"Ada\"}}]},\"variableValues\":{\"business\":\"the Harbour Cafe\"}}")));
        // A transcriber stream takes the script set when it opens: the front desk's now, billing's after the greeting.
        int connection = FakeProviders.deepgram().connections();
        FakeProviders.deepgram().script("I have a question about my bill.");
        FakeProviders.openai().script(request -> {
            String prompt = request.getJsonArray("messages").getJsonObject(0).getString("content");
            return prompt.contains("front desk")
                    ? FakeOpenAi.Reply.toolCall("transferCall", "{\"destination\":\"Billing\"}")
                    : FakeOpenAi.Reply.text("The second charge is only a hold.");
        });
        int spokenBefore = FakeProviders.elevenlabs().requests().size();

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to play", BOUND, () -> calls.transcript(callId).size() == 1
                    && !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size());
            FakeProviders.deepgram().script("Why was I charged twice?");
            caller.say(SpeechFixtures.mulaw8k("I have a question about my bill."));
            Eventually.until("billing's greeting", BOUND,
                    () -> calls.transcript(callId).contains("bot: Billing here, Ada."));
            Eventually.until("billing's greeting to play", BOUND, () -> !caller.playing()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            int heardBefore = caller.playedAudio().length;
            caller.say(SpeechFixtures.mulaw8k("Why was I charged twice?")).voiceToVoiceMs(BOUND);
            Eventually.until("billing's answer", BOUND,
                    () -> calls.transcript(callId).contains("bot: The second charge is only a hold."));
            Eventually.until("billing's answer to be heard", BOUND, () -> caller.playedAudio().length
                    >= heardBefore + SpeechFixtures.mulaw8k("The second charge is only a hold.").length - 160);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals(List.of("bot: Front desk, how can I help?", "user: I have a question about my bill.",
                "bot: Let me pass you to billing.", "system: The call was handed to Billing.", "bot: Billing here, Ada.",
                "user: Why was I charged twice?", "bot: The second charge is only a hold."), calls.transcript(callId));
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());

        // Each member spoke in its own voice.
        List<FakeElevenLabs.Request> spoken = FakeProviders.elevenlabs().requests();
        spoken = spoken.subList(spokenBefore, spoken.size());
        assertEquals(List.of("rachel: Front desk, how can I help?", "rachel: Let me pass you to billing.",
                "adam: Billing here, Ada.", "adam: The second charge is only a hold."),
                spoken.stream().map(request -> request.voiceId() + ": " + request.text()).toList());
        // Billing's model: its own, its prompt first, then the conversation so far with the hand-off.
        JsonObject asked = FakeProviders.openai().lastRequest();
        assertEquals("gpt-4o", asked.getString("model"));
        JsonArray messages = asked.getJsonArray("messages");
        assertEquals("You handle billing for the Harbour Cafe.", messages.getJsonObject(0).getString("content"));
        String context = messages.encode();
        assertTrue(context.contains("I have a question about my bill."), context);
        assertTrue(context.contains("\"role\":\"tool\""), context);
        assertTrue(context.contains("Why was I charged twice?"), context);
        assertTrue(!context.contains("You are the front desk"), "the front desk's prompt is gone: " + context);
        // Its own transcriber: a second stream with its settings, both closed at the end, both counted.
        assertTrue(FakeProviders.deepgram().connections() >= connection + 2, "a second transcriber stream");
        assertEquals("en-GB", FakeProviders.deepgram().lastQuery("language"));
        JsonNode usage = calls.ended(callId).path("usage");
        assertTrue(usage.path("sttSeconds").asDouble() > SpeechFixtures.mulawSeconds(
                SpeechFixtures.mulaw8k("I have a question about my bill.").length), usage.toString());
        // Each member's providers in lines of their own; the same transcriber of both adds to one line.
        assertEquals(Set.of("deepgram - transcription seconds", "openai gpt-4o-mini prompt-tokens tokens",
                "openai gpt-4o-mini cached-prompt-tokens tokens", "openai gpt-4o-mini completion-tokens tokens",
                "openai gpt-4o prompt-tokens tokens", "openai gpt-4o cached-prompt-tokens tokens",
                "openai gpt-4o completion-tokens tokens", "11labs rachel characters characters",
                "11labs adam characters characters"), UsageLines.of(usage).keySet());
        assertEquals(usage.path("sttSeconds").asDouble(), UsageLines.quantity(usage, "deepgram - transcription seconds"));
        assertEquals("Billing here, Ada.".length() + "The second charge is only a hold.".length(),
                UsageLines.quantity(usage, "11labs adam characters characters"));
    }

    @Test
    void aSquadCallHandedFromACascadedMemberToARealtimeOneReportsTheUsageOfBoth() throws Exception {
        UUID callId = UUID.randomUUID();
        StubbedCalls calls = calls();
        String frontDesk = "{\"name\":\"Front desk\",\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You are the front desk.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
                + "\"firstMessage\":\"Front desk, how can I help?\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";
        String billing = "{\"name\":\"Billing\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-realtime\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You handle billing.\"}]},"
                + "\"firstMessage\":\"Billing here.\",\"responseDelaySeconds\":0}";
        String org = calls.call(callId, frontDesk);
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                + frontDesk + ",\"squad\":{\"members\":[{\"assistant\":" + frontDesk
                                + ",\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\","
                                + "\"message\":\"Let me pass you to billing.\",\"description\":\"invoices\"}]},"
                                + "{\"assistant\":" + billing + "}]}}")));
        FakeProviders.deepgram().script("I have a question about my bill.");
        FakeProviders.openai().script(request -> FakeOpenAi.Reply.toolCall("transferCall",
                "{\"destination\":\"Billing\"}"));
        FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE).transcripts("Why was I charged twice?")
                .script(context -> new FakeOpenAiRealtime.Say("The second charge is only a hold."));
        int askedBefore = FakeProviders.openai().requestCount();

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to play", BOUND, () -> calls.transcript(callId).size() == 1
                    && !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.mulaw8k("I have a question about my bill."));
            Eventually.until("billing's greeting", BOUND, () -> calls.transcript(callId).contains("bot: Billing here."));
            Eventually.until("billing's greeting to play", BOUND, () -> !caller.playing()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.mulaw8k("Why was I charged twice?")).voiceToVoiceMs(BOUND);
            Eventually.until("billing's answer", BOUND,
                    () -> calls.transcript(callId).contains("bot: The second charge is only a hold."));
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);

        JsonNode usage = calls.ended(callId).path("usage");
        List<JsonObject> asked = FakeProviders.openai().requests();
        asked = asked.subList(askedBefore, asked.size());
        long prompt = asked.stream().mapToLong(FakeOpenAi::promptTokens).sum();
        long cached = asked.stream().mapToLong(FakeOpenAi::cachedTokens).sum();
        // The realtime member's two replies (its greeting, its answer), as the fake details each: 100 input tokens
        // (20 text, 80 audio; 16 and 48 of them cached) and 50 output tokens (10 text, 40 audio).
        assertEquals(new TreeMap<>(Map.ofEntries(
                Map.entry("deepgram - transcription seconds", usage.path("sttSeconds").asDouble()),
                Map.entry("openai gpt-4o-mini prompt-tokens tokens", prompt - cached),
                Map.entry("openai gpt-4o-mini cached-prompt-tokens tokens", cached),
                Map.entry("openai gpt-4o-mini completion-tokens tokens", usage.path("llmCompletionTokens").asLong() - 100),
                Map.entry("11labs rachel characters characters",
                        (long) ("Front desk, how can I help?".length() + "Let me pass you to billing.".length())),
                Map.entry("openai gpt-realtime text-input-tokens tokens", 8L),
                Map.entry("openai gpt-realtime audio-input-tokens tokens", 64L),
                Map.entry("openai gpt-realtime cached-text-input-tokens tokens", 32L),
                Map.entry("openai gpt-realtime cached-audio-input-tokens tokens", 96L),
                Map.entry("openai gpt-realtime text-output-tokens tokens", 20L),
                Map.entry("openai gpt-realtime audio-output-tokens tokens", 80L))), UsageLines.of(usage));
        assertTrue(usage.path("sttSeconds").asDouble() > 0, usage.toString());
        assertEquals(prompt + 200, usage.path("llmPromptTokens").asLong(), "the totals are the lines summed: " + usage);
        assertEquals("Front desk, how can I help?".length() + "Let me pass you to billing.".length(),
                usage.path("ttsCharacters").asLong(), "the realtime member has no voice of its own: " + usage);
    }
}
