package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shared held-calls stack ({@link HeldCalls}) holds a call through the gateway: a caller who hangs up after the
 * greeting ends the call {@code customer-ended-call}, with the greeting in its transcript. The feature system tests
 * (tools, transfers, live messages, recordings, Vonage) run on the same stack.
 */
@ExtendWith(HeldCalls.Shared.class)
class HeldCallsIT {

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    @Test
    void aCallerWhoHangsUpAfterTheGreetingEndsTheCall() throws Exception {
        String greeting = "Harbour Cafe, how can I help?";
        calls.openai().script(request -> new FakeOpenAi.Text("Sure."));
        String assistantId = calls.assistant("{\"name\":\"held\",\"firstMessage\":\"" + greeting + "\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"}}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("held", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.playing() && !caller.receivedMarks().isEmpty()
                            && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 3);
        JsonNode call = calls.endedCall(stream.callId());
        assertEquals("customer-ended-call", call.path("endedReason").asText(), call.toString());
        assertEquals(List.of("bot: " + greeting), HeldCalls.messages(call), call.toString());
        assertTrue(call.path("costBreakdown").path("tts").decimalValue().signum() > 0, call.toString());
    }
}
