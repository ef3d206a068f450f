package dev.voiceplane.runtime.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Voices of many calls share keep-alive connections to a provider, and a call cancels its speech whenever the caller
 * barges in or hangs up: a cancellation must never cost another call its speech. A speech cancelled on its first
 * audio, from a call on one event loop, races with the end of its answer on the connection's event loop: Vert.x 4.5
 * then closes the connection although it is back in the pool serving another call (eclipse-vertx/vert.x#6294). Found
 * by SoakTest on 2026-11-26 at bf690ab ("request failed: Connection was closed"), reproduced here: calls on every event
 * loop, half of them cancelling on their first audio; every speech left alone must end whole.
 */
class CancelledSpeechTest {

    private static final String KEY = "xi-test-key";
    private static final int SPEECHES = 1200;
    private static final int AT_ONCE = 48;

    private static Vertx vertx;
    private static FakeElevenLabs elevenlabs;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(4));
        elevenlabs = new FakeElevenLabs(KEY).ttfbMs(0).realTimeFactor(0).chunkMs(40);
    }

    @AfterAll
    static void stop() throws Exception {
        elevenlabs.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aSpeechCancelledOnItsFirstAudioCostsNoOtherCallItsSpeech() throws Exception {
        EventLoopHttpClients clients = new EventLoopHttpClients(vertx, new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(4096));
        String url = elevenlabs.baseUrl() + "/v1/text-to-speech/rachel/stream?output_format=ulaw_8000";
        HttpVoice voice = new HttpVoice(vertx, clients, "11labs", text -> new HttpVoice.Request(url, Map.of("xi-api-key", KEY),
                "{\"text\":\"" + text + "\",\"model_id\":\"eleven_turbo_v2_5\"}"), AudioFormat.ULAW_8K, null, 10_000,
                5_000);
        List<Context> calls = new ArrayList<>();
        for (int i = 0; i < AT_ONCE; i++) {
            // A call's context, as a carrier's WebSocket has: round robin over the event loops.
            calls.add(((VertxInternal) vertx).createEventLoopContext());
        }
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger whole = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int i = 0; i < AT_ONCE; i++) {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            running.add(ended);
            boolean cancels = i % 2 == 0;
            Context call = calls.get(i);
            // Each call speaks again as soon as its speech is over, as a conversation does: a connection back in the
            // pool is taken at once by the next speech of a call on its event loop (the pool hands out the newest).
            call.runOnContext(v -> speakOn(voice, cancels, SPEECHES / AT_ONCE, ended, whole, cancelled, failures));
        }
        // The race needs threads kept waiting for a core, as in a soak of many calls on two cores: spinning threads
        // make the machine that busy.
        AtomicBoolean spin = new AtomicBoolean(true);
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
            Thread.ofPlatform().daemon().start(() -> {
                while (spin.get()) {
                    Thread.onSpinWait();
                }
            });
        }
        try {
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } finally {
            spin.set(false);
            clients.close();
        }
        assertTrue(failures.isEmpty(), failures.size() + " speeches failed, the first: " + failures.peek());
        assertEquals(SPEECHES / 2, whole.get(), "every speech left alone ends whole");
        assertEquals(SPEECHES / 2, cancelled.get(), "every cancelling speech had its first audio");
    }

    /** Speaks {@code left} times in a row on the calling context, each cancelled on its first audio or left whole. */
    private static void speakOn(HttpVoice voice, boolean cancels, int left, CompletableFuture<Void> ended,
            AtomicInteger whole, AtomicInteger cancelled, ConcurrentLinkedQueue<String> failures) {
        if (left == 0) {
            ended.complete(null);
            return;
        }
        Runnable next = () -> speakOn(voice, cancels, left - 1, ended, whole, cancelled, failures);
        Runnable[] cancel = new Runnable[1];
        boolean[] over = new boolean[1];
        cancel[0] = voice.speak("Hello there.", new TextToSpeech.Listener() {
            @Override
            public void audio(byte[] audio) {
                if (cancels && !over[0]) {
                    over[0] = true;
                    cancel[0].run();
                    cancelled.incrementAndGet();
                    next.run();
                }
            }

            @Override
            public void done() {
                over[0] = true;
                if (!cancels) {
                    whole.incrementAndGet();
                }
                next.run();
            }

            @Override
            public void failed(ProviderError reason) {
                over[0] = true;
                failures.add((cancels ? "a cancelling" : "an untouched") + " speech failed: " + reason);
                next.run();
            }
        });
    }
}
