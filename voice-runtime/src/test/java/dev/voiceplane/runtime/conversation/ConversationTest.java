package dev.voiceplane.runtime.conversation;

import static dev.voiceplane.kit.testing.Eventually.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.MuLaw;
import dev.voiceplane.runtime.audio.VoiceActivity;
import dev.voiceplane.contracts.call.RuntimeEvent;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.media.MediaChannel;
import dev.voiceplane.runtime.ops.RuntimeMetrics;
import dev.voiceplane.runtime.provider.ChatRequest;
import dev.voiceplane.runtime.provider.FallbackModel;
import dev.voiceplane.runtime.provider.LanguageModel;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TextToSpeech;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The conversation's turn-taking with scripted providers in the same process (the end-to-end tests use fake
 * provider servers): a turn, the first message, barge-in and what the transcript keeps, backchannel words under
 * the interruption threshold, fallback models, a provider failure, the end-call phrase, the silence timeout and the
 * maximum duration — each seen through what the caller receives and what call-service is told.
 */
class ConversationTest {

    private static Vertx vertx;
    private final ObjectMapper json = new ObjectMapper();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    // ---- scripted parts --------------------------------------------------------------------------------------

    /** The caller's side of the channel: counts audio, answers marks (as played at once), records the rest. */
    static final class Caller implements MediaChannel {
        final List<String> marks = new CopyOnWriteArrayList<>();
        final List<Map<String, Object>> messages = new CopyOnWriteArrayList<>();
        volatile int frames;
        volatile int clears;
        volatile String closed;
        volatile long firstAudioAt;
        Conversation conversation;
        boolean echoMarks = true;

        @Override
        public AudioFormat format() {
            return AudioFormat.ULAW_8K;
        }

        @Override
        public void sendAudio(byte[] frame) {
            if (firstAudioAt == 0) {
                firstAudioAt = System.nanoTime();
            }
            frames++;
        }

        @Override
        public void sendMark(String name) {
            marks.add(name);
            if (echoMarks) {
                Vertx.currentContext().runOnContext(ignored -> conversation.markPlayed(name));
            }
        }

        @Override
        public void clear() {
            clears++;
        }

        @Override
        public void sendMessage(Map<String, Object> message) {
            messages.add(message);
        }

        @Override
        public void close(String reason) {
            closed = reason;
        }
    }

    /** Finalises each turn with the next scripted words. */
    static final class Transcriber implements SpeechToText {
        final ArrayDeque<String> script = new ArrayDeque<>();
        SpeechToText.Listener listener;
        volatile long bytes;
        volatile boolean closed;

        @Override
        public void send(byte[] audio) {
            bytes += audio.length;
        }

        @Override
        public void finalizeTurn() {
            String words = script.poll();
            if (words != null) {
                listener.segment(words, true);
            }
        }

        @Override
        public double secondsSent() {
            return bytes / 8000.0;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Replies with scripted texts word by word; named models can be made to fail. */
    static final class Model implements LanguageModel {
        final ArrayDeque<String> replies = new ArrayDeque<>();
        final Set<String> failing = Collections.synchronizedSet(new java.util.HashSet<>());
        final List<String> asked = new CopyOnWriteArrayList<>();
        final List<List<ChatMessage>> contexts = new CopyOnWriteArrayList<>();

        @Override
        public Runnable stream(ChatRequest request, Listener listener) {
            String model = request.model();
            List<ChatMessage> messages = request.messages();
            asked.add(model);
            contexts.add(messages);
            boolean[] cancelled = new boolean[1];
            if (failing.contains(model)) {
                vertx.getOrCreateContext().runOnContext(ignored -> listener.failed(
                        ProviderError.unavailable("openai", "model " + model + " is down")));
                return () -> cancelled[0] = true;
            }
            String reply = replies.isEmpty() ? "Fine." : replies.poll();
            Context context = Vertx.currentContext();
            context.runOnContext(ignored -> {
                for (String word : reply.split("(?<= )")) {
                    if (!cancelled[0]) {
                        listener.text(word);
                    }
                }
                if (!cancelled[0]) {
                    listener.done(100, reply.split(" ").length);
                }
            });
            return () -> cancelled[0] = true;
        }
    }

    /** Speaks 10 ms of audio per character. */
    static final class Voice implements TextToSpeech {
        final List<String> spoken = new CopyOnWriteArrayList<>();
        volatile boolean fail;

        @Override
        public Runnable speak(String text, Listener listener) {
            spoken.add(text);
            Context context = Vertx.currentContext();
            context.runOnContext(ignored -> {
                if (fail) {
                    listener.failed(ProviderError.unavailable("11labs", "voice is down"));
                    return;
                }
                byte[] audio = new byte[text.length() * 80];
                Arrays.fill(audio, (byte) 0x10);
                listener.audio(audio);
                listener.done();
            });
            return () -> { };
        }
    }

    private final Caller caller = new Caller();
    private final Transcriber transcriber = new Transcriber();
    private final Model model = new Model();
    private final Voice voice = new Voice();
    private final List<RuntimeEvent> events = new CopyOnWriteArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Context context;
    private Conversation conversation;

    private void startCall(String assistant) throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org-a", json.readTree(
                "{\"call\":{\"type\":\"webCall\"},\"assistant\":" + assistant + "}"));
        context = vertx.getOrCreateContext();
        onCall(() -> {
            conversation = new Conversation(new Conversation.Parts(plan, caller, context, listener -> {
                transcriber.listener = listener;
                return transcriber;
            }, FallbackModel.of(plan.model(), model, (choice, error) -> { }), voice,
                    new VoiceActivity.Settings(-40, 60, 200), 200, event -> {
                events.add(event.apply(events.size()));
                return Future.succeededFuture();
            }, new RuntimeMetrics(registry)));
            caller.conversation = conversation;
            conversation.start();
            return null;
        });
    }

    private static String assistant(String extra) {
        return AssistantJson.scripted().with(extra).json();
    }

    private <T> T onCall(Supplier<T> action) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        context.runOnContext(ignored -> {
            try {
                result.complete(action.get());
            } catch (Throwable failure) {
                result.completeExceptionally(failure);
            }
        });
        return result.get(5, TimeUnit.SECONDS);
    }

    /** The caller says {@code words}: half a second of speech, then the silence that ends a turn. */
    private void says(String words) throws Exception {
        transcriber.script.add(words);
        onCall(() -> {
            for (int i = 0; i < 25; i++) {
                conversation.audio(speech());
            }
            for (int i = 0; i < 12; i++) {
                conversation.audio(silence());
            }
            return null;
        });
    }

    private static byte[] speech() {
        byte[] frame = new byte[160];
        for (int i = 0; i < frame.length; i++) {
            frame[i] = MuLaw.encode((int) (8000 * Math.sin(2 * Math.PI * 300 * i / 8000.0)));
        }
        return frame;
    }

    private static byte[] silence() {
        byte[] frame = new byte[160];
        Arrays.fill(frame, MuLaw.SILENCE);
        return frame;
    }

    private List<String> transcript() {
        return events.stream().filter(e -> "message".equals(e.type()))
                .map(e -> e.message().get("role") + ": " + e.message().get("message")).collect(Collectors.toList());
    }

    private RuntimeEvent ended() {
        return events.stream().filter(e -> "ended".equals(e.type())).findFirst().orElse(null);
    }

    // ---- the tests -------------------------------------------------------------------------------------------

    @Test
    void aTurnIsHeardAnsweredAndRecorded() throws Exception {
        model.replies.add("We open at nine. See you then.");
        startCall(assistant(""));
        says("When do you open?");
        until("the reply's audio and its transcript", () -> transcript().size() == 2);
        assertEquals(List.of("user: When do you open?", "bot: We open at nine. See you then."), transcript());
        assertEquals(List.of("We open at nine.", "See you then."), voice.spoken);
        assertTrue(caller.frames >= "We open at nine.See you then.".length() * 80 / 160, "every piece was played");
        List<ChatMessage> asked = model.contexts.get(0);
        assertEquals(List.of(new ChatMessage("system", "Be brief."), new ChatMessage("user", "When do you open?")),
                asked);
        assertEquals("in-progress", events.get(0).type());
    }

    @Test
    void theFirstMessageIsSpokenBeforeTheCallerSaysAnything() throws Exception {
        startCall(assistant(",\"firstMessageMode\":\"assistant-speaks-first\",\"firstMessage\":\"Hello, front desk.\""));
        until("the greeting", () -> transcript().size() == 1);
        assertEquals(List.of("bot: Hello, front desk."), transcript());
        assertTrue(model.asked.isEmpty(), "a scripted first message needs no model");
        says("Hi");
        until("the reply", () -> transcript().size() == 3);
        assertEquals(List.of(new ChatMessage("system", "Be brief."), new ChatMessage("assistant", "Hello, front desk."),
                new ChatMessage("user", "Hi")), model.contexts.get(0));
    }

    @Test
    void aCallerWhoSpeaksOverTheAssistantStopsIt() throws Exception {
        String reply = "Let me tell you about all of our opening hours across every single day of the week in great detail.";
        model.replies.add(reply);
        model.replies.add("Saturday ten to two.");
        caller.echoMarks = false;
        startCall(assistant(""));
        says("Tell me everything.");
        // 200 ms are sent ahead at once; 30 frames means about 400 ms of the reply have played.
        until("part of the reply to be heard", () -> caller.frames > 30);
        onCall(() -> {
            for (int i = 0; i < 5; i++) {
                conversation.audio(speech());
            }
            return null;
        });
        until("the clear", () -> caller.clears == 1);
        int framesAtClear = caller.frames;
        until("the interrupted reply in the transcript", () -> transcript().size() == 2);
        String heard = transcript().get(1);
        assertTrue(heard.startsWith("bot: Let me"), heard);
        assertTrue(heard.length() < ("bot: " + reply).length(), "only what was played is kept: " + heard);

        says("Just the weekend.");
        until("the next reply", () -> transcript().size() == 4);
        assertEquals("user: Just the weekend.", transcript().get(2));
        assertEquals(framesAtClear + "Saturday ten to two.".length() * 80 / 160, caller.frames,
                "after the clear only the next reply is sent, none of the interrupted one");
        assertEquals(new ChatMessage("assistant", heard.substring(5)), model.contexts.get(1).get(2),
                "the model is told what the caller heard, not what it wrote");
    }

    @Test
    void wordsUnderTheThresholdDoNotInterrupt() throws Exception {
        model.replies.add("Our hours are nine to five on weekdays and ten to two on Saturdays, closed Sundays.");
        startCall(assistant(",\"numWordsToInterruptAssistant\":3"));
        says("Hours?");
        until("the reply to be audible", () -> caller.frames > 5);
        onCall(() -> {
            transcriber.listener.interim("okay");
            return null;
        });
        until("the whole reply", () -> transcript().size() == 2);
        assertEquals(0, caller.clears);
        assertEquals("bot: Our hours are nine to five on weekdays and ten to two on Saturdays, closed Sundays.",
                transcript().get(1));
    }

    @Test
    void enoughWordsInterrupt() throws Exception {
        model.replies.add("Our hours are nine to five on weekdays and ten to two on Saturdays, closed Sundays.");
        caller.echoMarks = false;
        startCall(assistant(",\"numWordsToInterruptAssistant\":3"));
        says("Hours?");
        until("the reply to be audible", () -> caller.frames > 5);
        onCall(() -> {
            transcriber.listener.interim("wait a second");
            return null;
        });
        until("the clear", () -> caller.clears == 1);
    }

    @Test
    void aVoiceShorterThanVoiceSecondsDoesNotInterruptALongerOneDoes() throws Exception {
        model.replies.add("Our hours are nine to five on weekdays and ten to two on Saturdays, closed Sundays.");
        caller.echoMarks = false;
        startCall(assistant(",\"stopSpeakingPlan\":{\"voiceSeconds\":0.5}"));
        says("Hours?");
        until("the reply to be audible", () -> caller.frames > 5);
        // 100 ms of voice (what interrupts at once without the plan, as above), then the silence that ends it.
        onCall(() -> {
            for (int i = 0; i < 5; i++) {
                conversation.audio(speech());
            }
            for (int i = 0; i < 12; i++) {
                conversation.audio(silence());
            }
            return null;
        });
        assertEquals(0, caller.clears, "the detector's speech ended before it had lasted voiceSeconds");
        onCall(() -> {
            for (int i = 0; i < 40; i++) {
                conversation.audio(speech());
            }
            return null;
        });
        until("the clear", () -> caller.clears == 1);
    }

    @Test
    void aFailingModelFallsBackToTheNext() throws Exception {
        model.failing.add("main");
        model.replies.add("Backup here.");
        startCall(assistant("").replace("\"model\":\"main\"", "\"model\":\"main\",\"fallbackModels\":[\"backup\"]"));
        says("Hello?");
        until("the backup's reply", () -> transcript().size() == 2);
        assertEquals(List.of("main", "backup"), model.asked);
        assertEquals("bot: Backup here.", transcript().get(1));
        assertEquals(null, ended());
    }

    @Test
    void aProviderThatFailsEndsTheCallWithAReasonNeverASilentLine() throws Exception {
        model.failing.add("main");
        startCall(assistant(""));
        says("Hello?");
        until("the end", () -> caller.closed != null);
        assertEquals("assistant-error", ended().endedReason());
        assertEquals("assistant-error", caller.closed);
        assertTrue(transcript().get(1).startsWith("system: The call ended: the model (openai) failed"), transcript().toString());
        assertEquals("ended", events.get(events.size() - 1).type(), "ended is the last event, before the close");
        assertTrue(transcriber.closed);
    }

    @Test
    void theEndCallPhraseEndsTheCallOnceSpoken() throws Exception {
        model.replies.add("Thanks for calling, goodbye.");
        startCall(assistant(",\"endCallPhrases\":[\"Goodbye\"]"));
        says("That's all.");
        until("the end", () -> caller.closed != null);
        RuntimeEvent ended = ended();
        assertEquals("assistant-said-end-call-phrase", ended.endedReason());
        assertEquals("bot: Thanks for calling, goodbye.", transcript().get(1));
        assertEquals(100, ended.usage().llmPromptTokens());
        assertEquals(4, ended.usage().llmCompletionTokens());
        assertEquals("Thanks for calling, goodbye.".length(), ended.usage().ttsCharacters());
        assertTrue(ended.usage().sttSeconds() > 0.5);
    }

    @Test
    void silenceTimesOutWithTheEndCallMessage() throws Exception {
        startCall(assistant(",\"silenceTimeoutSeconds\":0.2,\"endCallMessage\":\"Goodbye for now.\""));
        until("the end", () -> caller.closed != null);
        assertEquals("silence-timed-out", ended().endedReason());
        assertEquals(List.of("Goodbye for now."), voice.spoken);
        assertEquals(List.of("bot: Goodbye for now."), transcript());
    }

    @Test
    void theMaximumDurationEndsTheCall() throws Exception {
        startCall(assistant(",\"maxDurationSeconds\":0.3"));
        until("the end", () -> caller.closed != null);
        assertEquals("exceeded-max-duration", ended().endedReason());
    }

    @Test
    void aCallerInterruptsWithTheEraDefaultDelaysToo() throws Exception {
        model.replies.add("Let me tell you about all of our opening hours across every single day of the week in great detail.");
        caller.echoMarks = false;
        startCall(assistant("").replace("\"responseDelaySeconds\":0,", "\"responseDelaySeconds\":0.4,")
                .replace("\"llmRequestDelaySeconds\":0,", "\"llmRequestDelaySeconds\":0.1,"));
        says("Tell me everything.");
        until("part of the reply to be heard", () -> caller.frames > 30);
        onCall(() -> {
            for (int i = 0; i < 5; i++) {
                conversation.audio(speech());
            }
            return null;
        });
        until("the clear", () -> caller.clears == 1);
        var voiceToVoice = registry.find("voice_runtime_stage").tag("stage", "voice_to_voice").timer();
        assertTrue(voiceToVoice != null && voiceToVoice.count() == 1, "the held reply's voice-to-voice is measured");
        assertTrue(voiceToVoice.totalTime(TimeUnit.MILLISECONDS) >= 400, "not before responseDelaySeconds");
    }

    @Test
    void aCallerWhoHangsUpEndsTheCallWithoutClosingAgain() throws Exception {
        startCall(assistant(""));
        onCall(() -> {
            conversation.hungUp("customer-ended-call");
            return null;
        });
        until("ended", () -> ended() != null);
        assertEquals("customer-ended-call", ended().endedReason());
        assertEquals(null, caller.closed);
        assertFalse(new ArrayList<>(caller.messages).isEmpty());
    }

    @Test
    void aCallerWhoHangsUpWhileTheAssistantSpeaksLeavesWhatWasHeardInTheTranscript() throws Exception {
        String reply = "Let me tell you about all of our opening hours across every single day of the week in great detail.";
        model.replies.add(reply);
        caller.echoMarks = false;
        startCall(assistant(""));
        says("Tell me everything.");
        // 200 ms are sent ahead at once; 30 frames means about 400 ms of the reply have played.
        until("part of the reply to be heard", () -> caller.frames > 30);
        onCall(() -> {
            conversation.hungUp("customer-ended-call");
            return null;
        });
        until("ended", () -> ended() != null);
        List<String> transcript = transcript();
        assertEquals(2, transcript.size(), transcript.toString());
        assertEquals("user: Tell me everything.", transcript.get(0));
        String heard = transcript.get(1);
        assertTrue(heard.startsWith("bot: Let me") && reply.startsWith(heard.substring("bot: ".length()))
                && heard.length() < "bot: ".length() + reply.length(), "the words heard before the hang-up: " + heard);
        int endedAt = events.indexOf(ended());
        assertTrue(events.stream().filter(e -> "message".equals(e.type())).allMatch(e -> events.indexOf(e) < endedAt),
                "the words are reported before the call's end");
    }
}
