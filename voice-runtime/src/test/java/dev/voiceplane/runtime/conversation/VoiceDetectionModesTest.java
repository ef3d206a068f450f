package dev.voiceplane.runtime.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.audio.MuLaw;
import dev.voiceplane.runtime.audio.SileroModel;
import dev.voiceplane.runtime.audio.SileroVad;
import dev.voiceplane.runtime.audio.VoiceActivity;
import dev.voiceplane.runtime.audio.VoiceDetector;
import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The conversation's end of turn and barge-in with each voice activity detector ({@code VOICE_VAD} energy and
 * silero), on real speech (espeak-ng, μ-law 8 kHz) sent in real-time 20 ms frames as a carrier does, with the
 * scripted providers of {@link ConversationTest}. Also where the two differ: noise on the line.
 */
class VoiceDetectionModesTest {

    private static Vertx vertx;
    private static SileroVad silero;
    private final ObjectMapper json = new ObjectMapper();
    private final ConversationTest.Caller caller = new ConversationTest.Caller();
    private final ConversationTest.Transcriber transcriber = new ConversationTest.Transcriber();
    private final ConversationTest.Model model = new ConversationTest.Model();
    private final ConversationTest.Voice voice = new ConversationTest.Voice();
    private final List<RuntimeEvent> events = new CopyOnWriteArrayList<>();
    /** The line: frames waiting to be sent, one every 20 ms; silence when none. */
    private final ConcurrentLinkedQueue<byte[]> line = new ConcurrentLinkedQueue<>();
    private Context context;
    private Conversation conversation;
    private long lineTimer = -1;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        silero = new SileroVad(SileroModel.load(), new SileroVad.Settings(0.5, 60, 200, -55, 512));
    }

    @AfterAll
    static void stop() {
        silero.close();
        vertx.close();
    }

    @AfterEach
    void hangUp() {
        if (context != null) {
            context.runOnContext(ignored -> {
                vertx.cancelTimer(lineTimer);
                conversation.hungUp("customer-ended-call");
            });
        }
    }

    private static VoiceDetector.Factory detector(String mode) {
        return "silero".equals(mode) ? silero : VoiceDetector.energy(new VoiceActivity.Settings(-40, 60, 200));
    }

    private void startCall(String mode) throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org-a", json.readTree("{\"call\":{\"type\":\"inboundPhoneCall\"},"
                + "\"assistant\":" + AssistantJson.scripted().json() + "}"));
        context = vertx.getOrCreateContext();
        java.util.concurrent.CompletableFuture<Void> started = new java.util.concurrent.CompletableFuture<>();
        context.runOnContext(ignored -> {
            conversation = new Conversation(new Conversation.Parts(plan, caller, context, listener -> {
                transcriber.listener = listener;
                return transcriber;
            }, model, voice, detector(mode), 200, event -> {
                events.add(event.apply(events.size()));
                return Future.succeededFuture();
            }, new RuntimeMetrics(new SimpleMeterRegistry())));
            caller.conversation = conversation;
            conversation.start();
            lineTimer = vertx.setPeriodic(20, id -> {
                byte[] frame = line.poll();
                conversation.audio(frame != null ? frame : SpeechFixtures.mulawSilence(20));
            });
            started.complete(null);
        });
        started.get(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Puts audio on the line (after what is waiting), in 20 ms frames. */
    private void play(byte[] mulaw) {
        for (int at = 0; at + 160 <= mulaw.length; at += 160) {
            line.add(Arrays.copyOfRange(mulaw, at, at + 160));
        }
    }

    private List<String> transcript() {
        return events.stream().filter(e -> "message".equals(e.type()))
                .map(e -> e.message().get("role") + ": " + e.message().get("message")).collect(Collectors.toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"energy", "silero"})
    void aSpokenTurnIsAnsweredAndSpeakingOverTheReplyStopsIt(String mode) throws Exception {
        String reply = "Let me tell you about all of our opening hours across every single day of the week in great"
                + " detail so that you know exactly when to come.";
        model.replies.add(reply);
        model.replies.add("Saturday ten to two.");
        transcriber.script.add("Tell me everything about your opening hours.");
        transcriber.script.add("Just the weekend please.");
        caller.echoMarks = false;
        int detectorsBefore = silero.openDetectors();
        startCall(mode);

        play(SpeechFixtures.mulaw8k("Tell me everything about your opening hours."));
        Eventually.until("part of the reply to be heard", () -> caller.frames > 30);
        assertEquals("user: Tell me everything about your opening hours.", transcript().get(0),
                "the turn ended once, with the whole sentence");
        play(SpeechFixtures.mulaw8k("Just the weekend please."));
        Eventually.until("the clear", () -> caller.clears == 1);
        Eventually.until("the answer to the interruption", () -> transcript().size() == 4);
        List<String> transcript = transcript();
        assertTrue(transcript.get(1).startsWith("bot: Let me"), transcript.toString());
        assertTrue(transcript.get(1).length() < ("bot: " + reply).length(), "only what was played is kept: "
                + transcript.get(1));
        assertEquals("user: Just the weekend please.", transcript.get(2));
        assertEquals("bot: Saturday ten to two.", transcript.get(3));

        context.runOnContext(ignored -> conversation.hungUp("customer-ended-call"));
        Eventually.until("the call to end", () -> conversation.ended());
        if ("silero".equals(mode)) {
            assertEquals(detectorsBefore + 1 - 1, silero.openDetectors(), "the ended call's detector is freed");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"energy", "silero"})
    void noiseOnTheLineInterruptsOnlyTheEnergyDetector(String mode) throws Exception {
        // About five seconds of the assistant's audio (10 ms a character), the noise one second of it.
        String reply = "Our hours are nine to five on weekdays and ten to two on Saturdays and we are closed on"
                + " Sundays and on public holidays. The kitchen closes half an hour before we do and breakfast is"
                + " served until eleven on weekdays. On Saturdays breakfast runs all day long. Parking is behind the"
                + " building and free for guests. Booking is not needed for small groups.";
        model.replies.add(reply);
        transcriber.script.add("Hours?");
        startCall(mode);
        play(SpeechFixtures.mulaw8k("What are your hours?"));
        Eventually.until("the reply to be audible", () -> caller.frames > 10);
        // A second of loud white noise (-20 dBFS, above the energy threshold): traffic, a fan, a bad line.
        Random random = new Random(7);
        short[] noise = new short[8000];
        for (int i = 0; i < noise.length; i++) {
            noise[i] = (short) Math.max(-32768, Math.min(32767, Math.round(random.nextGaussian() * 3277)));
        }
        play(MuLaw.encode(noise));
        if ("energy".equals(mode)) {
            Eventually.until("the noise to interrupt", () -> caller.clears == 1);
        } else {
            Eventually.until("the noise to be sent", line::isEmpty);
            assertTrue(transcript().size() < 2, "the noise was sent while the reply played");
            Eventually.until("the whole reply", () -> transcript().size() == 2);
            assertEquals(0, caller.clears, "noise is not speech: the reply was not interrupted");
            assertEquals("bot: " + reply, transcript().get(1));
        }
    }

    @Test
    void silenceNeverStartsATurn() throws Exception {
        startCall("silero");
        play(SpeechFixtures.mulawSilence(1000));
        Eventually.until("the silence to be sent", line::isEmpty);
        assertTrue(transcriber.script.isEmpty() && model.asked.isEmpty(), "no turn on silence");
    }
}
