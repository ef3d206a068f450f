package dev.voiceplane.runtime.provider.deepgram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeDeepgramAura;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.RecordedSpeech;
import dev.voiceplane.runtime.provider.TestProviderClients;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoiceSettings;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One call's Aura voice against the fake Aura: pieces asked for at once are spoken one after the other, each with its
 * own audio, in order; a cancelled piece being spoken is cleared and a cancelled piece waiting is never sent; many
 * pieces within a minute stay within Deepgram's Flush limit; a socket closed while idle is opened again; closing the
 * voice says {@code Close}; the base URL may be an http one (the scheme pair is derived).
 */
class AuraQueueTest {

    private static final String KEY = "dg-aura-queue-test";
    private static final Duration BOUND = Duration.ofSeconds(30);

    private static Vertx vertx;
    private static FakeDeepgram deepgram;
    private static ProviderClients clients;

    private Context call;
    private TextToSpeech voice;
    private int messagesBefore;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        deepgram = new FakeDeepgram(KEY);
        // An http base URL: the voice derives ws from it, as from https it derives wss.
        clients = TestProviderClients.on(vertx, Map.of("voice.runtime.url.deepgram", deepgram.baseUrl()));
    }

    @AfterAll
    static void stop() throws Exception {
        deepgram.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void open() {
        call = ((VertxInternal) vertx).createEventLoopContext();
        voice = new DeepgramVoices(clients).open(settings("aura-2-thalia-en", null), Credential.key(KEY),
                AudioFormat.ULAW_8K);
        messagesBefore = aura().messages().size();
    }

    @AfterEach
    void close() throws Exception {
        on(() -> {
            voice.close();
            return null;
        });
        // Its Close is received before its socket closes: the next test's messages are its own.
        Eventually.until("the voice's socket to be closed", BOUND, () -> aura().openConnections() == 0);
        aura().realTimeFactor(0).failure(FakeDeepgramAura.Failure.NONE);
    }

    private static FakeDeepgramAura aura() {
        return deepgram.aura();
    }

    private static VoiceSettings settings(String voiceId, Double speed) {
        return new VoiceSettings("deepgram", voiceId, speed, 10, List.of("."), JsonNodeFactory.instance.objectNode());
    }

    private <T> T on(Supplier<T> action) throws Exception {
        CompletableFuture<T> answer = new CompletableFuture<>();
        call.runOnContext(v -> answer.complete(action.get()));
        return answer.get(10, TimeUnit.SECONDS);
    }

    /** This test's messages to Aura, as {@code type} or {@code type:text}. */
    private List<String> sent() {
        List<String> messages = aura().messages();
        return messages.subList(messagesBefore, messages.size()).stream().map(JsonObject::new)
                .map(message -> message.getString("type") + (message.containsKey("text") ? ":" + message.getString("text")
                        : ""))
                .toList();
    }

    private List<RecordedSpeech> speakAll(List<String> texts, List<String> ends) throws Exception {
        List<RecordedSpeech> heard = new ArrayList<>();
        on(() -> {
            for (String text : texts) {
                RecordedSpeech speech = new RecordedSpeech(text, ends);
                heard.add(speech);
                voice.speak(text, speech);
            }
            return null;
        });
        return heard;
    }

    @Test
    void piecesAskedForAtOnceAreSpokenInOrderEachWithItsOwnAudio() throws Exception {
        List<String> texts = List.of("The first piece of the reply.", "A second piece, a little longer than the first.",
                "Third.");
        List<String> ends = new CopyOnWriteArrayList<>();
        List<RecordedSpeech> heard = speakAll(texts, ends);
        Eventually.until("every piece to be over", BOUND, () -> heard.stream().allMatch(RecordedSpeech::over));
        assertEquals(texts, ends, "done in order");
        for (int i = 0; i < texts.size(); i++) {
            assertTrue(heard.get(i).isDone(), texts.get(i) + " failed: " + heard.get(i).failure());
            assertArrayEquals(SpeechFixtures.mulaw8k(texts.get(i)), heard.get(i).audio(),
                    "the audio of \"" + texts.get(i) + "\" is its own, whole");
        }
        assertEquals(List.of("Speak:" + texts.get(0), "Flush", "Speak:" + texts.get(1), "Flush", "Speak:" + texts.get(2),
                "Flush"), sent());
        assertEquals("Token " + KEY, aura().lastAuthorization());
        assertEquals("aura-2-thalia-en", aura().lastQuery("model"));
    }

    @Test
    void aCancelledPieceBeingSpokenIsClearedAndOneWaitingIsNeverSent() throws Exception {
        aura().realTimeFactor(0.5);
        String cut = "This sentence is long enough to be cut off while Aura is still speaking it.";
        String kept = "This one is heard to its end.";
        String dropped = "This one is dropped before its turn.";
        List<String> ends = new CopyOnWriteArrayList<>();
        RecordedSpeech first = new RecordedSpeech(cut, ends);
        RecordedSpeech second = new RecordedSpeech(kept, ends);
        RecordedSpeech third = new RecordedSpeech(dropped, ends);
        List<Runnable> cancels = on(() -> List.of(voice.speak(cut, first), voice.speak(kept, second),
                voice.speak(dropped, third)));
        Eventually.until("the first audio of the piece to cancel", BOUND, () -> first.bytes() > 0);
        int heardBefore = on(() -> {
            cancels.get(0).run();
            cancels.get(2).run();
            return first.bytes();
        });
        Eventually.until("the piece kept to be over", BOUND, second::over);
        assertTrue(second.isDone(), "the piece kept was spoken: " + second.failure());
        assertArrayEquals(SpeechFixtures.mulaw8k(kept), second.audio(), "its audio is its own: the cleared is dropped");
        assertFalse(first.over());
        assertFalse(third.over());
        assertEquals(heardBefore, first.bytes(), "a cancelled piece hears no audio after it");
        assertEquals(List.of("Speak:" + cut, "Flush", "Clear", "Speak:" + kept, "Flush"), sent());
    }

    @Test
    void manyPiecesWithinAMinuteStayWithinDeepgramsFlushLimit() throws Exception {
        List<String> texts = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            texts.add("Piece " + i + ".");
        }
        List<String> ends = new CopyOnWriteArrayList<>();
        List<RecordedSpeech> heard = speakAll(texts, ends);
        Eventually.until("every piece to be over", BOUND, () -> heard.stream().allMatch(RecordedSpeech::over));
        assertEquals(texts, ends, "done in order");
        assertTrue(heard.stream().allMatch(RecordedSpeech::isDone), "none failed");
        assertEquals(List.of(), aura().warnings(), "Deepgram was never asked for a Flush past its limit");
        long flushes = sent().stream().filter("Flush"::equals).count();
        assertTrue(flushes <= DeepgramAura.FLUSH_LIMIT, flushes + " flushes");
        // Half the budget spent (10 flushes), the 20 pieces waiting went together behind one Flush.
        assertEquals(11, flushes);
        for (int i = 0; i < 10; i++) {
            assertArrayEquals(SpeechFixtures.mulaw8k(texts.get(i)), heard.get(i).audio(), texts.get(i) + " alone");
        }
        String together = String.join(" ", texts.subList(10, 30));
        assertEquals("Speak:" + together, sent().get(20));
        assertArrayEquals(SpeechFixtures.mulaw8k(together), heard.get(10).audio(), "their audio goes to the first");
        for (int i = 11; i < 30; i++) {
            assertEquals(0, heard.get(i).bytes(), texts.get(i) + " is done with the first");
        }
    }

    @Test
    void aSocketClosedWhileIdleIsOpenedAgainForTheNextPiece() throws Exception {
        List<String> ends = new CopyOnWriteArrayList<>();
        RecordedSpeech before = new RecordedSpeech("before", ends);
        on(() -> voice.speak("Before the pause.", before));
        Eventually.until("the piece to be done", BOUND, before::isDone);
        int connections = aura().connections();
        aura().dropConnections();
        Eventually.until("the idle socket to be closed", BOUND, () -> aura().openConnections() == 0);
        RecordedSpeech after = new RecordedSpeech("after", ends);
        on(() -> voice.speak("After the pause.", after));
        Eventually.until("the next piece to be over", BOUND, after::over);
        assertTrue(after.isDone(), "the next piece was spoken on a new socket: " + after.failure());
        assertArrayEquals(SpeechFixtures.mulaw8k("After the pause."), after.audio());
        assertEquals(connections + 1, aura().connections());
        assertEquals(List.of("before", "after"), ends, "the idle close failed nothing");
    }

    @Test
    void closingTheVoiceSaysCloseAndClosesItsSocket() throws Exception {
        List<String> ends = new CopyOnWriteArrayList<>();
        RecordedSpeech spoken = new RecordedSpeech("spoken", ends);
        on(() -> voice.speak("Good morning.", spoken));
        Eventually.until("the piece to be done", BOUND, spoken::isDone);
        assertEquals(1, aura().openConnections(), "the call's one socket");
        RecordedSpeech afterwards = new RecordedSpeech("afterwards", ends);
        on(() -> {
            voice.close();
            return voice.speak("Too late.", afterwards);
        });
        Eventually.until("the socket to be closed", BOUND, () -> aura().openConnections() == 0);
        assertEquals(List.of("Speak:Good morning.", "Flush", "Close"), sent());
        ProviderError refused = afterwards.failure();
        assertEquals(ProviderError.Kind.UNAVAILABLE, refused == null ? null : refused.kind(),
                "a closed voice speaks no more");
    }

    @Test
    void settingsAuraCannotTakeAreRefusedBeforeTheCall() {
        DeepgramVoices voices = new DeepgramVoices(clients);
        assertEquals(Optional.of("needs a voiceId (an Aura model, such as aura-2-thalia-en)"),
                voices.refused(settings(" ", null)));
        assertEquals(Optional.of("takes a speed between 0.7 and 1.5, not 0.5"), voices.refused(settings("a", 0.5)));
        assertEquals(Optional.empty(), voices.refused(settings("aura-2-thalia-en", 1.5)));
    }

    @Test
    void aTextLongerThanAuraTakesGoesInSeveralSpeaks() {
        StringBuilder text = new StringBuilder();
        while (text.length() < 4500) {
            text.append("Word").append(text.length() % 7).append(' ');
        }
        List<String> parts = DeepgramAura.parts(text.toString().trim());
        assertEquals(3, parts.size());
        assertTrue(parts.stream().allMatch(part -> part.length() <= DeepgramAura.MAX_SPEAK_CHARACTERS));
        assertEquals(text.toString().trim(), String.join("", parts), "nothing lost, nothing added");
        assertEquals(List.of("Short."), DeepgramAura.parts("Short."));
    }
}
