package dev.voiceplane.runtime.provider.cartesia;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.fake.FakeCartesia;
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
 * One call's Cartesia voice against the fake Cartesia: pieces in flight at once on the call's one socket each hear
 * only their own context's audio; a cancelled piece hears nothing more and its context is cancelled; a socket Cartesia
 * closed while idle is opened again for the next piece; closing the voice closes its socket; settings Cartesia cannot
 * take are refused before the call.
 */
class CartesiaContextsTest {

    private static final String KEY = "sk_car_contexts-test";
    private static final Duration BOUND = Duration.ofSeconds(20);

    private static Vertx vertx;
    private static FakeCartesia cartesia;
    private static ProviderClients clients;

    private Context call;
    private TextToSpeech voice;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        cartesia = new FakeCartesia(KEY);
        clients = TestProviderClients.on(vertx, Map.of("voice.runtime.url.cartesia", cartesia.baseUrl()));
    }

    @AfterAll
    static void stop() throws Exception {
        cartesia.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void open() {
        call = ((VertxInternal) vertx).createEventLoopContext();
        voice = new CartesiaVoices(clients).open(settings("voice-a", null), Credential.key(KEY), AudioFormat.ULAW_8K);
    }

    @AfterEach
    void close() throws Exception {
        on(() -> {
            voice.close();
            return null;
        });
        Eventually.until("the voice's socket to be closed", BOUND, () -> cartesia.openConnections() == 0);
        cartesia.realTimeFactor(0).failure(FakeCartesia.Failure.NONE);
    }

    private static VoiceSettings settings(String voiceId, Double speed) {
        return new VoiceSettings("cartesia", voiceId, speed, 10, List.of("."), JsonNodeFactory.instance.objectNode());
    }

    /** Runs {@code action} on the call's context and returns its answer. */
    private <T> T on(Supplier<T> action) throws Exception {
        CompletableFuture<T> answer = new CompletableFuture<>();
        call.runOnContext(v -> answer.complete(action.get()));
        return answer.get(10, TimeUnit.SECONDS);
    }

    private String contextOf(String transcript) {
        return cartesia.requests().stream().filter(request -> transcript.equals(request.getString("transcript")))
                .map(request -> request.getString("context_id")).findFirst().orElseThrow();
    }

    @Test
    void piecesInFlightAtOnceEachHearOnlyTheirOwnAudio() throws Exception {
        int upgrades = cartesia.upgrades().size();
        List<String> texts = List.of("The first piece of the reply.", "A second piece, a little longer than the first.",
                "Third.");
        List<String> ends = new CopyOnWriteArrayList<>();
        List<RecordedSpeech> heard = new ArrayList<>();
        on(() -> {
            for (String text : texts) {
                RecordedSpeech speech = new RecordedSpeech(text, ends);
                heard.add(speech);
                voice.speak(text, speech);
            }
            return null;
        });
        Eventually.until("every piece to be done", BOUND, () -> heard.stream().allMatch(RecordedSpeech::over));
        for (int i = 0; i < texts.size(); i++) {
            assertTrue(heard.get(i).isDone(), texts.get(i) + " failed: " + heard.get(i).failure());
            assertArrayEquals(SpeechFixtures.mulaw8k(texts.get(i)), heard.get(i).audio(),
                    "the audio of \"" + texts.get(i) + "\" is its own, whole");
        }
        assertEquals(3, texts.stream().map(this::contextOf).distinct().count(), "one context per piece");
        assertEquals(upgrades + 1, cartesia.upgrades().size(), "one socket for the call");
    }

    @Test
    void aCancelledPieceHearsNothingMoreAndItsContextIsCancelled() throws Exception {
        cartesia.realTimeFactor(0.5);
        String cancelled = "This sentence is long enough to be cut off while it is still being generated.";
        String kept = "This one is heard to its end.";
        List<String> ends = new CopyOnWriteArrayList<>();
        RecordedSpeech first = new RecordedSpeech(cancelled, ends);
        RecordedSpeech second = new RecordedSpeech(kept, ends);
        Runnable cancel = on(() -> {
            Runnable answer = voice.speak(cancelled, first);
            voice.speak(kept, second);
            return answer;
        });
        Eventually.until("the first audio of the piece to cancel", BOUND, () -> first.bytes() > 0);
        int heardBefore = on(() -> {
            cancel.run();
            return first.bytes();
        });
        Eventually.until("the other piece to be done", BOUND, second::over);
        assertTrue(second.isDone(), "the other piece was spoken: " + second.failure());
        assertArrayEquals(SpeechFixtures.mulaw8k(kept), second.audio());
        assertFalse(first.over(), "a cancelled piece hears no end");
        assertEquals(heardBefore, first.bytes(), "nor any audio after it was cancelled");
        String context = contextOf(cancelled);
        Eventually.until("Cartesia to be told to cancel the context", BOUND, () -> cartesia.cancels().contains(context));
        assertFalse(cartesia.done().contains(context), "Cartesia stopped generating it");
    }

    @Test
    void aSocketClosedWhileIdleIsOpenedAgainForTheNextPiece() throws Exception {
        List<String> ends = new CopyOnWriteArrayList<>();
        RecordedSpeech before = new RecordedSpeech("before", ends);
        on(() -> voice.speak("Before the pause.", before));
        Eventually.until("the piece to be done", BOUND, before::isDone);
        int upgrades = cartesia.upgrades().size();
        cartesia.dropConnections();
        Eventually.until("the idle socket to be closed", BOUND, () -> cartesia.openConnections() == 0);
        RecordedSpeech after = new RecordedSpeech("after", ends);
        on(() -> voice.speak("After the pause.", after));
        Eventually.until("the next piece to be over", BOUND, after::over);
        assertTrue(after.isDone(), "the next piece was spoken on a new socket: " + after.failure());
        assertArrayEquals(SpeechFixtures.mulaw8k("After the pause."), after.audio());
        assertEquals(upgrades + 1, cartesia.upgrades().size());
        assertEquals(List.of("before", "after"), ends, "the idle close failed nothing");
    }

    @Test
    void closingTheVoiceClosesItsSocket() throws Exception {
        List<String> ends = new CopyOnWriteArrayList<>();
        RecordedSpeech spoken = new RecordedSpeech("spoken", ends);
        on(() -> voice.speak("Good morning.", spoken));
        Eventually.until("the piece to be done", BOUND, spoken::isDone);
        assertEquals(1, cartesia.openConnections(), "the call's one socket");
        RecordedSpeech afterwards = new RecordedSpeech("afterwards", ends);
        on(() -> {
            voice.close();
            return voice.speak("Too late.", afterwards);
        });
        Eventually.until("the socket to be closed", BOUND, () -> cartesia.openConnections() == 0);
        ProviderError refused = afterwards.failure();
        assertEquals(ProviderError.Kind.UNAVAILABLE, refused == null ? null : refused.kind(),
                "a closed voice speaks no more");
    }

    @Test
    void settingsCartesiaCannotTakeAreRefusedBeforeTheCall() {
        CartesiaVoices voices = new CartesiaVoices(clients);
        assertEquals(Optional.of("needs a voiceId (the id of a Cartesia voice)"), voices.refused(settings(null, null)));
        assertEquals(Optional.of("takes a speed between 0.6 and 1.5, not 2.0"), voices.refused(settings("v", 2.0)));
        assertEquals(Optional.empty(), voices.refused(settings("v", 0.8)));
        assertNull(voices.refused(settings("v", null)).orElse(null));
    }
}
