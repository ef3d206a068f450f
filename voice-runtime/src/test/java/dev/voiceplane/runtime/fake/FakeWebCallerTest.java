package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.Eventually;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake web caller against a stand-in of the runtime's web-call WebSocket. */
class FakeWebCallerTest {

    private MediaServerStandIn runtime;
    private FakeWebCaller caller;

    @BeforeEach
    void start() throws Exception {
        runtime = new MediaServerStandIn();
        caller = FakeWebCaller.connect(runtime.url("/web-call/call-1?token=abc"));
    }

    @AfterEach
    void stop() {
        caller.close();
        runtime.close();
    }

    @Test
    void sendsPcmFramesWithTheSpeechAndHearsTheReply() {
        byte[] speech = SpeechFixtures.pcm16k("hello there");
        FakeCaller.Utterance utterance = caller.say(speech);
        Eventually.until("the utterance is sent", () -> utterance.ended().isDone());
        assertEquals("/web-call/call-1?token=abc", runtime.uri);
        // The speech, whole and frame-aligned, then at least one frame of silence.
        Eventually.until("the speech and a frame after it", () -> {
            List<byte[]> frames = List.copyOf(runtime.binaries);
            byte[] all = new byte[frames.size() * 640];
            for (int i = 0; i < frames.size(); i++) {
                System.arraycopy(frames.get(i), 0, all, i * 640, 640);
            }
            for (int at = 0; at + speech.length + 640 <= all.length; at += 640) {
                if (Arrays.equals(all, at, at + speech.length, speech, 0, speech.length)) {
                    return true;
                }
            }
            return false;
        });
        assertTrue(runtime.binaries.stream().allMatch(frame -> frame.length == 640));

        runtime.sendBinary(SpeechFixtures.pcm16k("hi"));
        assertTrue(utterance.voiceToVoiceMs(Duration.ofSeconds(10)) >= 0);
    }

    @Test
    void marksClearsAndClientMessages() {
        byte[] reply = SpeechFixtures.pcm16k("a reply long enough to be cleared before its end");
        runtime.sendBinary(Arrays.copyOf(reply, 1280));
        runtime.send(new JsonObject().put("type", "mark").put("name", "short"));
        Eventually.until("the first mark is echoed", () -> runtime.texts.size() == 1);
        assertEquals(new JsonObject().put("type", "mark").put("name", "short"), runtime.texts.get(0));
        assertEquals(1280, caller.playedAudio().length);

        runtime.sendBinary(reply);
        runtime.send(new JsonObject().put("type", "mark").put("name", "long"));
        runtime.send(new JsonObject().put("type", "clear"));
        runtime.send(new JsonObject().put("type", "transcript").put("role", "user").put("transcript", "hi"));
        Eventually.until("the client message is recorded", () -> !caller.messages().isEmpty());
        assertEquals(1, caller.clears().size());
        assertTrue(caller.playedAudio().length < 1280 + reply.length);
        assertEquals(List.of("long"), caller.receivedMarks().subList(1, 2));
        assertEquals(List.of("short"), caller.echoedMarks(), "a mark dropped by a clear is not echoed");
        assertEquals(List.of(new JsonObject().put("type", "transcript").put("role", "user").put("transcript", "hi")),
                caller.messages());
    }

    @Test
    void hangUpSaysSoThenCloses() throws Exception {
        FakeCaller.Closed closed = caller.hangUp().get(10, TimeUnit.SECONDS);
        runtime.closed.get(10, TimeUnit.SECONDS);
        assertFalse(closed.byRuntime());
        assertEquals(List.of(new JsonObject().put("type", "hangup")), runtime.texts);
    }
}
