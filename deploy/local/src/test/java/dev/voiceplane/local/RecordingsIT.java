package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A recorded call through the gateway (docs/voice-runtime.md, "Recordings"): the runtime streams the call to
 * file-service as it goes, and the ended call names a mono and a stereo WAV that read back through the gateway with
 * the organisation's key, and are not found with another organisation's. And the office background sound
 * ("Other voice settings") reaches the caller through the gateway while nobody speaks.
 */
@ExtendWith(HeldCalls.Shared.class)
class RecordingsIT {

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    @Test
    void aRecordedCallsFilesReadBackThroughTheGatewayWithTheOrganisationsKeyOnly() throws Exception {
        calls.deepgram().script("What time do you open?");
        calls.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
        String assistantId = calls.assistant("{\"name\":\"recorded\",\"recordingEnabled\":true,"
                + "\"firstMessage\":\"Harbour Cafe, how can I help?\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"}}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("recorded", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.playing() && !caller.receivedMarks().isEmpty()
                            && caller.echoedMarks().size() == caller.receivedMarks().size());
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("What time do you open?"));
            question.voiceToVoiceMs(HeldCalls.CONVERSATION_STEP);
            HeldCalls.eventually("the answer to play out", HeldCalls.CONVERSATION_STEP,
                    () -> !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 6);
        JsonNode call = calls.endedCall(stream.callId());
        String mono = call.path("recordingUrl").asText();
        String stereo = call.path("stereoRecordingUrl").asText();
        assertTrue(mono.startsWith(calls.publicUrl() + "/file/") && mono.endsWith("/content"), call.toString());
        assertTrue(stereo.startsWith(calls.publicUrl() + "/file/") && stereo.endsWith("/content"), call.toString());

        for (String[] recording : new String[][] {{mono, "1"}, {stereo, "2"}}) {
            String path = URI.create(recording[0]).getPath();
            byte[] wav = calls.as(HeldCalls.KEY).when().get(path).then().statusCode(200)
                    .header("Content-Type", "audio/wav").extract().asByteArray();
            ByteBuffer header = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals("RIFF", new String(wav, 0, 4));
            assertEquals(Integer.parseInt(recording[1]), header.getShort(22), "channels of " + path);
            assertEquals(8000, header.getInt(24), "the call's rate");
            assertEquals(wav.length - 44, header.getInt(40), "the header names the data it holds");
            // The greeting, the question and the answer: seconds of audio.
            assertTrue(wav.length - 44 > 8000 * 2 * Integer.parseInt(recording[1]) * 3, path + ": " + wav.length);
            calls.as(HeldCalls.OTHER_KEY).when().get(path).then().statusCode(404);
        }
    }

    @Test
    void anOfficeIsHeardUnderSilenceThroughTheGateway() throws Exception {
        String assistantId = calls.assistant("{\"name\":\"office\",\"backgroundSound\":\"office\","
                + "\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for an office.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"}}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("office", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            // Nobody speaks and the assistant waits: what the caller hears is the office, quiet but not silence.
            HeldCalls.eventually("a second of the office", HeldCalls.CONVERSATION_STEP,
                    () -> caller.playedAudio().length >= 8000);
            short[] heard = SpeechFixtures.decodeMulaw(caller.playedAudio(), 0, 8000);
            double sum = 0;
            for (short sample : heard) {
                sum += (double) sample * sample;
            }
            double dbfs = 10 * Math.log10(Math.max(1e-12, sum / heard.length) / (32768.0 * 32768.0));
            assertTrue(dbfs > -55 && dbfs < -30, "the office at " + dbfs + " dBFS");
            assertTrue(caller.receivedMarks().isEmpty(), "no reply was spoken: " + caller.receivedMarks());
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        calls.carrierStatus(number, sid, "completed", 2, 2);
        // Nobody spoke, so there is no transcript to analyse: the call is read back once it ended.
        JsonNode[] call = new JsonNode[1];
        HeldCalls.eventually("the office call to end", () -> {
            call[0] = HeldCalls.read(calls.as(HeldCalls.KEY).when().get("/call/" + stream.callId()).then()
                    .statusCode(200).extract().asString());
            return call[0].path("status").asText().equals("ended");
        });
        assertEquals("customer-ended-call", call[0].path("endedReason").asText(), call[0].toString());
    }
}
