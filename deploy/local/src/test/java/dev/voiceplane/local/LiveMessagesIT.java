package dev.voiceplane.local;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.restassured.http.ContentType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Live server messages and voicemail through the gateway on the shared held-calls stack ({@link HeldCalls}): the
 * assistant's server receives transcript, speech-update and conversation-update while a held call goes on, in the
 * order they happened and only those kinds; and when the carrier's answering-machine detection says a machine
 * answered, the assistant's voicemailMessage is left after the greeting's beep and the call ends {@code voicemail}.
 */
@ExtendWith(HeldCalls.Shared.class)
class LiveMessagesIT {

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    private static String assistant(String extra) {
        return calls.assistant("{\"name\":\"live\",\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"}" + extra + "}");
    }

    @Test
    void theServerHearsTheHeldCallAsItHappens() throws Exception {
        calls.openai().script(request -> new FakeOpenAi.Text("Yes, behind the building."));
        calls.deepgram().script("Do you have parking?");
        String assistantId = assistant(",\"firstMessage\":\"Harbour Cafe, how can I help?\","
                + "\"serverMessages\":[\"transcript\",\"speech-update\",\"conversation-update\"],"
                + "\"server\":{\"url\":\"" + calls.server("live") + "\"}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("live", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.playing() && !caller.receivedMarks().isEmpty()
                            && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.mulaw8k("Do you have parking?")).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP);
            HeldCalls.eventually("the conversation with the answer at the server", () -> calls.received("live",
                    stream.callId()).stream().anyMatch(m -> "conversation-update".equals(m.path("type").asText())
                            && m.path("messages").size() == 3));
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 9);
        calls.endedCall(stream.callId());

        List<JsonNode> received = calls.received("live", stream.callId());
        List<String> kinds = new ArrayList<>();
        for (JsonNode message : received) {
            String kind = message.path("type").asText();
            assertTrue(List.of("transcript", "speech-update", "conversation-update").contains(kind),
                    "only the listed kinds: " + kind);
            assertEquals(stream.callId(), message.path("call").path("id").asText());
            kinds.add(kind + ":" + message.path("role").asText(message.path("messages").size() + ""));
        }
        int greetingPlayed = kinds.indexOf("transcript:assistant");
        int callerStarted = indexOf(received, "speech-update", "user", "started");
        int callerFinal = indexOf(received, "transcript", "user", "final");
        int answerStarted = lastIndexOf(received, "speech-update", "assistant", "started");
        int answerFinal = kinds.lastIndexOf("transcript:assistant");
        assertTrue(greetingPlayed >= 0 && greetingPlayed < callerStarted && callerStarted < callerFinal
                && callerFinal < answerStarted && answerStarted < answerFinal, "in the order it happened: " + kinds);
        assertEquals("Do you have parking?", received.get(callerFinal).path("transcript").asText());
        assertEquals("Yes, behind the building.", received.get(answerFinal).path("transcript").asText());
        JsonNode conversation = received.stream().filter(m -> "conversation-update".equals(m.path("type").asText()))
                .reduce((first, second) -> second).orElseThrow();
        assertEquals(List.of("bot", "user", "bot"), conversation.path("messages").findValuesAsText("role"));
    }

    private static int indexOf(List<JsonNode> messages, String type, String role, String statusOrType) {
        for (int i = 0; i < messages.size(); i++) {
            if (matches(messages.get(i), type, role, statusOrType)) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(List<JsonNode> messages, String type, String role, String statusOrType) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (matches(messages.get(i), type, role, statusOrType)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matches(JsonNode message, String type, String role, String statusOrType) {
        return type.equals(message.path("type").asText()) && role.equals(message.path("role").asText())
                && (statusOrType.equals(message.path("status").asText())
                        || statusOrType.equals(message.path("transcriptType").asText()));
    }

    @Test
    void aMachineGetsTheVoicemailMessageAfterTheBeep() throws Exception {
        String message = "This is the Harbour Cafe, please call us back.";
        calls.deepgram().script("Hi, you have reached Ada. Please leave a message after the tone.");
        String assistantId = assistant(",\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"voicemailMessage\":\"" + message + "\"");
        HeldCalls.TwilioNumber number = calls.twilioNumber("voicemail", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        calls.expectCallUpdates(number, sid);
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the call to be live", () -> "in-progress".equals(calls.as(HeldCalls.KEY)
                    .get("/call/" + stream.callId()).then().extract().path("status")));
            answeringMachine(number, sid, stream.callId(), "machine_start");

            ByteArrayOutputStream greeting = new ByteArrayOutputStream();
            greeting.write(SpeechFixtures.mulaw8k("Hi, you have reached Ada. Please leave a message after the tone."));
            greeting.write(SpeechFixtures.mulawSilence(300));
            greeting.write(beep());
            FakeCaller.Utterance machine = caller.say(greeting.toByteArray());
            assertTrue(machine.voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0, "the message came after the beep");
            FakeCaller.Closed closed = caller.closed().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call once the message played");
        }
        JsonNode call = calls.endedCall(stream.callId());
        assertEquals("voicemail", call.path("endedReason").asText(), call.toString());
        assertEquals(List.of("bot: " + message), HeldCalls.messages(call), call.toString());
        HeldCalls.eventually("the carrier's call to be hung up", () -> !calls.callUpdates(number, sid).isEmpty());
    }

    /** Twilio's asynchronous answering-machine result, signed, at the address telephony-service gives it. */
    private static void answeringMachine(HeldCalls.TwilioNumber number, String sid, String callId, String answeredBy) {
        String query = "phoneNumberId=" + number.id() + "&callId=" + callId;
        Map<String, String> params = new LinkedHashMap<>();
        params.put("AccountSid", number.accountSid());
        params.put("CallSid", sid);
        params.put("AnsweredBy", answeredBy);
        given().baseUri(calls.publicUrl()).contentType(ContentType.URLENC)
                .header("X-Twilio-Signature", HeldCalls.signature(number.authToken(),
                        calls.publicUrl() + "/twilio/amd?" + query, params))
                .body(HeldCalls.form(params)).when().post("/twilio/amd?" + query)
                .then().statusCode(200);
    }

    /** An answering machine's beep: 1 kHz for 500 ms at −10 dBFS, μ-law (G.711). */
    private static byte[] beep() {
        byte[] out = new byte[4000];
        for (int i = 0; i < out.length; i++) {
            out[i] = mulaw((short) Math.round(10362 * Math.sin(2 * Math.PI * 1000 * i / 8000.0)));
        }
        return out;
    }

    private static byte mulaw(short sample) {
        int sign = sample < 0 ? 0x80 : 0;
        int magnitude = Math.min(Math.abs((int) sample), 32635) + 0x84;
        int exponent = 7;
        for (int mask = 0x4000; (magnitude & mask) == 0 && exponent > 0; mask >>= 1) {
            exponent--;
        }
        int mantissa = (magnitude >> (exponent + 3)) & 0x0F;
        return (byte) ~(sign | (exponent << 4) | mantissa);
    }
}
