package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Transfers through the gateway on the shared held-calls stack ({@link HeldCalls}; docs/voice-runtime.md, "Transfers
 * and squads"): a held call the assistant transfers to a phone number (the fake carrier records the call update with
 * its {@code <Dial>}; the call ends {@code assistant-forwarded-call} with {@code forwardedPhoneNumber} and is not hung
 * up), and a squad call handed from one member to another mid-call, the second member heard in its own voice.
 */
@ExtendWith(HeldCalls.Shared.class)
class TransfersIT {

    private static final String DESK = "+14155550177";
    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    private static boolean playedOut(FakeCaller caller) {
        return !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size();
    }

    @Test
    void aHeldCallIsTransferredToANumberAndTheCarrierDialsIt() throws Exception {
        String message = "Transferring you to the front desk now.";
        String question = "Can I talk to a person please?";
        calls.deepgram().script(question);
        calls.openai().script(request -> {
            JsonArray messages = request.getJsonArray("messages");
            return "user".equals(messages.getJsonObject(messages.size() - 1).getString("role"))
                    ? FakeOpenAi.Reply.toolCall("transferCall", "{\"destination\":\"" + DESK + "\"}")
                    : FakeOpenAi.Reply.text("Is there anything else?");
        });
        String assistantId = calls.assistant("{\"name\":\"transfers\",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}],\"tools\":[{\"type\":\"transferCall\","
                + "\"destinations\":[{\"type\":\"number\",\"number\":\"" + DESK + "\",\"message\":\"" + message + "\","
                + "\"description\":\"the front desk\"}]}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"},\"responseDelaySeconds\":0,"
                + "\"serverUrl\":\"" + calls.server("transfers") + "\","
                + "\"serverMessages\":[\"status-update\",\"end-of-call-report\"]}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("transfers", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        calls.expectCallUpdates(number, sid);
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);

        try (FakeTwilioCaller caller = calls.connect(stream)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            HeldCalls.eventually("the carrier to be asked to dial the front desk", HeldCalls.CONVERSATION_STEP,
                    () -> !calls.callUpdates(number, sid).isEmpty());
            int played = caller.playedAudio().length;
            // Twilio stops the media stream when the call's TwiML is replaced.
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(played >= SpeechFixtures.mulaw8k(message).length - 160,
                    "the message was heard before the transfer: " + played + " bytes");
        }
        // The forwarded conversation ends later; the carrier's completed only fills the duration.
        calls.carrierStatus(number, sid, "completed", 2, 95);

        JsonNode call = calls.endedCall(stream.callId());
        assertEquals("assistant-forwarded-call", call.path("endedReason").asText(), call.toString());
        assertEquals(DESK, call.path("forwardedPhoneNumber").asText(), call.toString());
        assertEquals(List.of("user: " + question, "bot: " + message), HeldCalls.messages(call), call.toString());
        List<String> updates = calls.callUpdates(number, sid);
        assertEquals(List.of("Twiml=<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Dial callerId=\""
                + number.number() + "\"><Number>" + DESK + "</Number></Dial></Response>"), updates,
                "one update, the <Dial>, and no hang-up of the forwarded call");
        HeldCalls.eventually("the end-of-call report", () -> calls.received("transfers", stream.callId()).stream()
                .anyMatch(received -> "end-of-call-report".equals(received.path("type").asText())));
        List<JsonNode> received = calls.received("transfers", stream.callId());
        assertEquals(List.of("in-progress", "forwarding", "ended"), received.stream()
                .filter(sent -> "status-update".equals(sent.path("type").asText()))
                .map(sent -> sent.path("status").asText()).filter(status -> !"queued".equals(status)).toList());
        JsonNode report = received.stream().filter(sent -> "end-of-call-report".equals(sent.path("type").asText()))
                .findFirst().orElseThrow();
        assertEquals("assistant-forwarded-call", report.path("endedReason").asText());
        assertEquals(DESK, report.path("call").path("forwardedPhoneNumber").asText(), report.toString());
    }

    @Test
    void aSquadCallIsHandedToAnotherMemberMidCallAndHeardInItsVoice() throws Exception {
        String question = "I have a question about my bill.";
        String followUp = "Why was I charged twice?";
        String answer = "The second charge is only a hold.";
        String frontDesk = calls.assistant("{\"name\":\"Front desk\",\"firstMessage\":\"Front desk, how can I help?\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You are the front desk of a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"},\"responseDelaySeconds\":0}");
        String billing = calls.assistant("{\"name\":\"Billing\",\"firstMessage\":\"Billing here, {{name}}.\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en-GB\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You handle billing for a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"adam\"},\"responseDelaySeconds\":0}");
        String squadId = calls.squad("{\"name\":\"cafe\",\"members\":[{\"assistantId\":\"" + frontDesk + "\","
                + "\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\","
                + "\"message\":\"Let me pass you to billing.\",\"description\":\"invoices and charges\"}]},"
                + "{\"assistantId\":\"" + billing + "\",\"assistantOverrides\":{\"variableValues\":{\"name\":\"Ada\"}}}]}");
        // The number has no assistant: its server answers the assistant-request with the squad.
        calls.outside().stubFor(post(urlEqualTo("/hooks/squads")).atPriority(1)
                .withRequestBody(matchingJsonPath("$.message.type",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo("assistant-request")))
                .willReturn(okJson("{\"squadId\":\"" + squadId + "\"}")));
        HeldCalls.TwilioNumber number = calls.twilioNumber("squads", "\"serverUrl\":\"" + calls.server("squads") + "\"");
        int connection = calls.deepgram().connections();
        calls.deepgram().scriptFor(connection, question);
        calls.deepgram().scriptFor(connection + 1, followUp);
        calls.openai().script(request -> request.getJsonArray("messages").getJsonObject(0).getString("content")
                .contains("front desk") ? FakeOpenAi.Reply.toolCall("transferCall", "{\"destination\":\"Billing\"}")
                : FakeOpenAi.Reply.text(answer));
        int spokenBefore = calls.elevenlabs().requests().size();
        String sid = HeldCalls.callSid();
        calls.expectCallUpdates(number, sid);
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);

        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the front desk's greeting to play", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.receivedMarks().isEmpty() && playedOut(caller));
            // Each reply's audio ends with a mark: the hand-off's message and billing's greeting add at least two.
            // (Billing's voice being asked is not enough: its audio may not have arrived yet, and the follow-up
            // would then be said over the greeting.)
            int marksBefore = caller.receivedMarks().size();
            caller.say(SpeechFixtures.mulaw8k(question));
            HeldCalls.eventually("billing's greeting to play", HeldCalls.CONVERSATION_STEP, () -> calls.elevenlabs()
                    .requests().stream().anyMatch(spoken -> "adam".equals(spoken.voiceId()))
                    && caller.receivedMarks().size() >= marksBefore + 2 && playedOut(caller));
            int heard = caller.playedAudio().length;
            int marksGreeted = caller.receivedMarks().size();
            assertTrue(caller.say(SpeechFixtures.mulaw8k(followUp)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "billing's answer was heard");
            HeldCalls.eventually("billing's answer to play", HeldCalls.CONVERSATION_STEP, () -> caller.playedAudio()
                    .length >= heard + SpeechFixtures.mulaw8k(answer).length - 160
                    && caller.receivedMarks().size() > marksGreeted && playedOut(caller));
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 40);

        JsonNode call = calls.endedCall(stream.callId());
        assertEquals("customer-ended-call", call.path("endedReason").asText(), call.toString());
        assertEquals(squadId, call.path("squadId").asText(), call.toString());
        List<String> transcript = new java.util.ArrayList<>();
        call.path("messages").forEach(said -> transcript.add(said.path("role").asText() + ": "
                + said.path("message").asText()));
        assertEquals(List.of("bot: Front desk, how can I help?", "user: " + question, "bot: Let me pass you to billing.",
                "system: The call was handed to Billing.", "bot: Billing here, Ada.", "user: " + followUp,
                "bot: " + answer), transcript, call.toString());
        List<FakeElevenLabs.Request> spoken = calls.elevenlabs().requests();
        assertEquals(List.of("rachel: Front desk, how can I help?", "rachel: Let me pass you to billing.",
                "adam: Billing here, Ada.", "adam: " + answer), spoken.subList(spokenBefore, spoken.size()).stream()
                .map(request -> request.voiceId() + ": " + request.text()).toList());
        JsonObject asked = calls.openai().lastRequest();
        assertEquals("gpt-4o", asked.getString("model"));
        assertEquals("You handle billing for a cafe.", asked.getJsonArray("messages").getJsonObject(0).getString("content"));
        assertTrue(asked.getJsonArray("messages").encode().contains(question), asked.encode());
        assertEquals("en-GB", calls.deepgram().lastQuery("language"));
        assertTrue(calls.callUpdates(number, sid).stream().noneMatch(update -> update.contains("Twiml")),
                "a hand-off stays on the call's stream: " + calls.callUpdates(number, sid));
    }
}
