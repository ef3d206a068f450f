package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.Eventually;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake Twilio caller against a stand-in of the runtime's media WebSocket. */
class FakeTwilioCallerTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private MediaServerStandIn runtime;
    private FakeTwilioCaller caller;

    @BeforeEach
    void start() throws Exception {
        runtime = new MediaServerStandIn();
        caller = FakeTwilioCaller.connect(runtime.url("/twilio/stream"), Map.of("callId", "call-1", "token", "t0k"));
    }

    @AfterEach
    void stop() {
        caller.close();
        runtime.close();
    }

    @Test
    void opensLikeTwilioThenSendsSilenceAndSpeechEvery20Ms() {
        byte[] speech = SpeechFixtures.mulaw8k("hello there");
        FakeCaller.Utterance utterance = caller.say(speech);
        Eventually.until("the utterance is sent", () -> utterance.ended().isDone());
        Eventually.until("the speech and a frame after it", () -> {
            byte[] sent = sentAudio();
            int at = indexOf(sent, speech);
            return at >= 0 && sent.length - at - speech.length >= 160;
        });

        assertEquals("/twilio/stream", runtime.uri);
        JsonObject connected = runtime.texts.get(0);
        assertEquals(new JsonObject().put("event", "connected").put("protocol", "Call").put("version", "1.0.0"),
                connected);
        JsonObject start = runtime.texts.get(1);
        assertEquals("start", start.getString("event"));
        assertEquals("1", start.getString("sequenceNumber"));
        assertEquals(caller.streamSid(), start.getString("streamSid"));
        assertTrue(caller.streamSid().startsWith("MZ") && caller.callSid().startsWith("CA"));
        JsonObject body = start.getJsonObject("start");
        assertEquals(caller.callSid(), body.getString("callSid"));
        assertEquals(new JsonObject().put("callId", "call-1").put("token", "t0k"), body.getJsonObject("customParameters"));
        assertEquals(new JsonObject().put("encoding", "audio/x-mulaw").put("sampleRate", 8000).put("channels", 1),
                body.getJsonObject("mediaFormat"));

        List<JsonObject> media = runtime.events("media");
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        for (int i = 0; i < media.size(); i++) {
            JsonObject frame = media.get(i);
            assertEquals(String.valueOf(i + 2), frame.getString("sequenceNumber"));
            assertEquals(String.valueOf(i + 1), frame.getJsonObject("media").getString("chunk"));
            assertEquals(String.valueOf(i * 20), frame.getJsonObject("media").getString("timestamp"));
            assertEquals("inbound", frame.getJsonObject("media").getString("track"));
            byte[] payload = Base64.getDecoder().decode(frame.getJsonObject("media").getString("payload"));
            assertEquals(160, payload.length);
            sent.writeBytes(payload);
        }
        byte[] all = sent.toByteArray();
        int at = indexOf(all, speech);
        assertTrue(at >= 0, "the speech is sent whole, in order");
        assertEquals(0, at % 160, "speech starts on a frame");
        assertTrue(at == 0 || all[at - 1] == (byte) 0xFF, "silence before it");
        assertEquals((byte) 0xFF, all[all.length - 1], "silence after it");
        assertTrue(utterance.started().join() <= utterance.ended().join());
    }

    @Test
    void marksAreEchoedOnlyAfterTheAudioBeforeThemPlayed() {
        byte[] reply = Arrays.copyOf(SpeechFixtures.mulaw8k("one moment"), 800);
        AtomicInteger playedAtEcho = new AtomicInteger(-1);
        runtime.onText = message -> {
            if ("mark".equals(message.getString("event"))) {
                playedAtEcho.set(caller.playedAudio().length);
            }
        };
        runtime.send(media(reply));
        runtime.send(mark("reply-1"));
        Eventually.until("the mark is echoed", () -> playedAtEcho.get() >= 0);

        assertEquals(800, playedAtEcho.get(), "all the audio before the mark had played");
        assertEquals(List.of("reply-1"), caller.echoedMarks());
        JsonObject echo = runtime.events("mark").get(0);
        assertEquals(caller.streamSid(), echo.getString("streamSid"));
        assertEquals("reply-1", echo.getJsonObject("mark").getString("name"));
        assertTrue(Integer.parseInt(echo.getString("sequenceNumber")) > 1);
        assertEquals(List.of(), caller.underrunGapsMs(), "one utterance closed by a mark has no gap");
    }

    @Test
    void clearDropsTheQueueAndEchoesPendingMarksAtOnce() {
        byte[] reply = SpeechFixtures.mulaw8k("this is a long answer that the caller will interrupt");
        runtime.send(media(reply));
        runtime.send(mark("long-reply"));
        runtime.send(new JsonObject().put("event", "clear").put("streamSid", caller.streamSid()));
        Eventually.until("the pending mark is echoed", () -> !runtime.events("mark").isEmpty());

        assertEquals(1, caller.clears().size());
        assertEquals(List.of("long-reply"), caller.echoedMarks());
        assertTrue(caller.playedAudio().length < reply.length, "the rest was never played");
        assertEquals(reply.length, caller.receivedAudio().length);
        assertFalse(caller.playing());
    }

    @Test
    void voiceToVoiceAndBargeInAreMeasuredOnTheUtterances() {
        FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("what time is it"));
        Eventually.until("the question is said", () -> question.ended().isDone());
        runtime.send(media(SpeechFixtures.mulaw8k("it is noon, and a long answer follows")));
        assertTrue(question.voiceToVoiceMs(BOUND) >= 0);

        // The caller interrupts; the stand-in clears as soon as it hears speech.
        runtime.onText = message -> {
            if ("media".equals(message.getString("event")) && caller.clears().isEmpty()) {
                byte[] payload = Base64.getDecoder().decode(message.getJsonObject("media").getString("payload"));
                if (payload[0] != (byte) 0xFF) {
                    runtime.send(new JsonObject().put("event", "clear").put("streamSid", caller.streamSid()));
                }
            }
        };
        FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("stop"));
        assertTrue(interruption.bargeInMs(BOUND) >= 0);
        assertFalse(question.cleared().isDone(), "the answered question was not interrupted");
    }

    @Test
    void whatIsHeardRunsFromTheLastVoicedFrameSentToTheFirstVoicedFramePlayed() {
        // Speech, then 200 ms of silence inside the same utterance: its end is later than its last voiced frame.
        byte[] speech = SpeechFixtures.mulaw8k("what time is it");
        byte[] silence = SpeechFixtures.mulawSilence(200);
        byte[] withQuiet = Arrays.copyOf(speech, speech.length + silence.length);
        System.arraycopy(silence, 0, withQuiet, speech.length, silence.length);
        FakeCaller.Utterance question = caller.say(withQuiet);
        Eventually.until("the question is said", () -> question.ended().isDone());
        // The reply starts with three frames of silence: the first voiced frame plays 60 ms after it arrived.
        byte[] reply = Arrays.copyOf(SpeechFixtures.mulawSilence(60), 480 + 800);
        for (int i = 480; i < reply.length; i++) {
            reply[i] = (byte) (i % 2 == 0 ? 0x10 : 0x90); // a loud square wave: voiced from its first sample
        }
        runtime.send(media(reply));

        double received = question.voiceToVoiceMs(BOUND);
        double heard = question.heardMs(BOUND);
        assertTrue(question.lastVoiced().join() < question.ended().join(), "the quiet after the words is not voice");
        assertEquals(60.0, (question.firstHeard().join() - question.firstReply().join()) / 1e6, 1e-6,
                "the silent frames play before the first voiced one, from the reply's arrival");
        assertEquals(60.0 + (question.ended().join() - question.lastVoiced().join()) / 1e6, heard - received, 1e-6);
    }

    @Test
    void aGapInsideAssistantAudioIsAnUnderrun() {
        // 2.5 frames: the third 20 ms slot is only half filled, a gap the caller hears.
        byte[] part = Arrays.copyOf(SpeechFixtures.mulaw8k("first part"), 400);
        runtime.send(media(part));
        Eventually.until("the first part played", () -> caller.playedAudio().length == 400 && !caller.playing());
        runtime.send(media(part));
        runtime.send(mark("end"));
        Eventually.until("the end mark is echoed", () -> caller.echoedMarks().contains("end"));
        assertEquals(1, caller.underrunGapsMs().size());
        assertTrue(caller.underrunGapsMs().get(0) > 0);
    }

    @Test
    void dtmfThenStopEndsTheStream() throws Exception {
        caller.dtmf('5');
        FakeCaller.Closed closed = caller.stop().get(10, TimeUnit.SECONDS);
        runtime.closed.get(10, TimeUnit.SECONDS);
        assertFalse(closed.byRuntime());
        JsonObject dtmf = runtime.events("dtmf").get(0);
        assertEquals("5", dtmf.getJsonObject("dtmf").getString("digit"));
        JsonObject stop = runtime.events("stop").get(0);
        assertEquals(caller.callSid(), stop.getJsonObject("stop").getString("callSid"));
        assertEquals(caller.accountSid(), stop.getJsonObject("stop").getString("accountSid"));
        assertEquals("stop", runtime.texts.get(runtime.texts.size() - 1).getString("event"), "nothing after stop");
    }

    @Test
    void aCloseByTheRuntimeIsRecordedWithItsReason() throws Exception {
        runtime.ws().close((short) 1008, "media token refused");
        FakeCaller.Closed closed = caller.closed().get(10, TimeUnit.SECONDS);
        assertEquals(new FakeCaller.Closed((short) 1008, "media token refused", true), closed);
    }

    private byte[] sentAudio() {
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        for (JsonObject frame : runtime.events("media")) {
            sent.writeBytes(Base64.getDecoder().decode(frame.getJsonObject("media").getString("payload")));
        }
        return sent.toByteArray();
    }

    private JsonObject media(byte[] audio) {
        return new JsonObject().put("event", "media").put("streamSid", caller.streamSid())
                .put("media", new JsonObject().put("payload", Base64.getEncoder().encodeToString(audio)));
    }

    private JsonObject mark(String name) {
        return new JsonObject().put("event", "mark").put("streamSid", caller.streamSid())
                .put("mark", new JsonObject().put("name", name));
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
