package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketConnectOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A soak: a few hundred short calls in waves, mixing every way a call ends - the assistant's end-call phrase, a
 * barge-in and then the caller's hang-up, a voice that fails, a caller who drops the line without {@code stop}, and a
 * stream that never sends {@code start} - then the JVM's live threads and open file descriptors must come back to
 * what they were before (within a small margin: pools and keep-alive connections come and go), and the live-calls
 * gauge to 0. A call that leaked a socket, a timer's thread or a transcriber connection would add hundreds.
 */
@QuarkusTest
class SoakTest {

    private static final int WAVE = 30;
    private static final int WAVES = 8;
    private static final int THREAD_MARGIN = 10;
    private static final int FD_MARGIN = 24;
    private static final Duration CALL_BOUND = Duration.ofSeconds(60);
    /** Keep-alive connections and idle pool threads of a busier wave than the warm-up expire within a minute. */
    private static final Duration SETTLE_BOUND = Duration.ofSeconds(150);
    private static final String ORG = "org-soak";
    private static final String BARGE_IN = "Stop please.";

    /** How a call of the soak goes; the call id's last digits name it, so a handful of stubs serve all calls. */
    private enum Kind {
        NORMAL("assistant-said-end-call-phrase"), BARGE_IN("customer-ended-call"), PROVIDER_FAILURE("assistant-error"),
        DROPPED("phone-call-provider-closed-websocket"), NEVER_STARTS(null);

        final String endedReason;

        Kind(String endedReason) {
            this.endedReason = endedReason;
        }

        UUID callId() {
            return new UUID(UUID.randomUUID().getMostSignificantBits(), 0xA000_0000_0000L + ordinal());
        }

        String suffix() {
            return String.format("%012x", 0xA000_0000_0000L + ordinal());
        }
    }

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;

    @Test
    void hundredsOfCallsLeakNoThreadNoSocketAndNoLiveCall() throws Exception {
        calls = new StubbedCalls(wireMock);
        stub();
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.NONE).script(BARGE_IN);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Of course."));
        FakeProviders.elevenlabs().failure(FakeElevenLabs.Failure.NONE)
                .failureFor("broken", FakeElevenLabs.Failure.SERVER_ERROR);
        byte[] bargeIn = SpeechFixtures.mulaw8k(BARGE_IN);
        Vertx callers = Vertx.vertx();
        ExecutorService pool = Executors.newFixedThreadPool(WAVE);
        try {
            // The warm-up grows the pools (event loops, workers, keep-alive connections) to their working size: some
            // (Vert.x worker pools) never shrink, so the baseline is taken after two waves like the soak's.
            wave(0, callers, pool, bargeIn);
            wave(1, callers, pool, bargeIn);
            Eventually.until("the warm-up's calls to end", CALL_BOUND, () -> StubbedCalls.liveCalls() == 0);
            int threads = threads();
            long fds = fds();

            for (int wave = 2; wave < 2 + WAVES; wave++) {
                wave(wave, callers, pool, bargeIn);
            }

            Eventually.until("the live-calls gauge to return to 0", CALL_BOUND, () -> StubbedCalls.liveCalls() == 0);
            int[] lastThreads = {0};
            long[] lastFds = {0};
            try {
                Eventually.until("threads and file descriptors to return to the baseline", SETTLE_BOUND, () -> {
                    lastThreads[0] = threads();
                    lastFds[0] = fds();
                    return lastThreads[0] <= threads + THREAD_MARGIN && lastFds[0] <= fds + FD_MARGIN;
                });
            } catch (AssertionError leak) {
                throw new AssertionError("after " + WAVES * WAVE + " calls: " + lastThreads[0] + " threads (baseline "
                        + threads + "), " + lastFds[0] + " open file descriptors (baseline " + fds + ")", leak);
            }
        } finally {
            pool.shutdownNow();
            callers.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            FakeProviders.elevenlabs().failureFor("broken", FakeElevenLabs.Failure.NONE);
        }
    }

    /** Runs one wave of calls at once, of every kind in turn, and checks each ended as its kind does. */
    private void wave(int wave, Vertx callers, ExecutorService pool, byte[] bargeIn) throws Exception {
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int i = 0; i < WAVE; i++) {
            Kind kind = Kind.values()[(wave + i) % Kind.values().length];
            running.add(CompletableFuture.runAsync(() -> call(kind, callers, bargeIn), pool));
        }
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new))
                .get(CALL_BOUND.toSeconds() * 2, TimeUnit.SECONDS);
    }

    private void call(Kind kind, Vertx callers, byte[] bargeIn) {
        UUID callId = kind.callId();
        try {
            if (kind == Kind.NEVER_STARTS) {
                neverStarts(callers);
                return;
            }
            FakeTwilioCaller caller = calls.phoneCall(callers, callId, ORG);
            try {
                switch (kind) {
                    case NORMAL, PROVIDER_FAILURE -> {
                        FakeCaller.Closed closed = caller.closed().get(CALL_BOUND.toSeconds(), TimeUnit.SECONDS);
                        assertTrue(closed.byRuntime(), kind + ": " + closed);
                        assertEquals((short) 1000, closed.code(), kind + ": " + closed);
                    }
                    case BARGE_IN -> {
                        Eventually.until("the greeting", CALL_BOUND, () -> caller.firstAudioNanos() > 0);
                        caller.say(bargeIn);
                        Eventually.until("the barge-in's clear", CALL_BOUND, () -> !caller.clears().isEmpty());
                        caller.stop().get(CALL_BOUND.toSeconds(), TimeUnit.SECONDS);
                    }
                    case DROPPED -> {
                        Eventually.until("the greeting", CALL_BOUND, () -> caller.firstAudioNanos() > 0);
                        caller.close();
                    }
                    default -> throw new IllegalStateException();
                }
            } finally {
                caller.close();
            }
            JsonNode ended = Eventually.value("call " + callId + " (" + kind + ") to end", () -> calls.ended(callId),
                    event -> event != null);
            assertEquals(kind.endedReason, ended.path("endedReason").asText(), kind + ": " + ended);
        } catch (Exception e) {
            throw new AssertionError(kind + " call " + callId + " failed: " + e, e);
        }
    }

    /** A stream that opens and never sends {@code start}: the runtime closes it (start timeout, 1 s in tests). */
    private static void neverStarts(Vertx callers) throws Exception {
        CompletableFuture<Short> closed = new CompletableFuture<>();
        var client = callers.createWebSocketClient();
        java.net.URI uri = java.net.URI.create(StubbedCalls.streamUrl());
        client.connect(new WebSocketConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setURI(uri.getPath())).onComplete(result -> {
                    if (result.failed()) {
                        closed.completeExceptionally(result.cause());
                        return;
                    }
                    result.result().closeHandler(v -> closed.complete(result.result().closeStatusCode()));
                });
        try {
            assertEquals((short) 1008, closed.get(CALL_BOUND.toSeconds(), TimeUnit.SECONDS),
                    "a stream without start is closed by the runtime");
        } finally {
            client.close();
        }
    }

    /** One organisation with keys for the providers; each kind's assistant; the events route of every call. */
    private void stub() {
        String voice = "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"%s\",\"inputMinCharacters\":10}";
        String normal = StubbedCalls.assistant(",\"firstMessage\":\"Hello, goodbye.\",\"endCallPhrases\":[\"goodbye\"]");
        String bargeIn = StubbedCalls.assistant(",\"firstMessage\":\"Welcome to the Harbour Cafe. We serve breakfast,"
                + " lunch and dinner every day of the week, and our coffee is roasted in house.\"");
        String failing = normal.replace(String.format(voice, "rachel"), String.format(voice, "broken"));
        String dropped = StubbedCalls.assistant(",\"firstMessage\":\"Hello there, caller.\"");
        String[] assistants = {normal, bargeIn, failing, dropped};
        for (Kind kind : List.of(Kind.NORMAL, Kind.BARGE_IN, Kind.PROVIDER_FAILURE, Kind.DROPPED)) {
            wireMock.stubFor(post(urlMatching("/internal/call/[0-9a-f-]+-" + kind.suffix() + "/runtime/attach"))
                    .withHeader("X-Voice-Org-Id", equalTo(ORG))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("{\"call\":{\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                    + assistants[kind.ordinal()] + ",\"variableValues\":{}}")));
        }
        wireMock.stubFor(post(urlMatching("/internal/call/[0-9a-f-]+-a0000000000[0-9]/runtime/events"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"recorded\":true,\"applied\":true,\"status\":\"in-progress\"}")));
        StubbedCalls.credentials(wireMock, ORG, "soak", Map.of("deepgram", FakeProviders.DEEPGRAM_KEY,
                "openai", FakeProviders.OPENAI_KEY, "11labs", FakeProviders.ELEVENLABS_KEY));
    }

    private static int threads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    private static long fds() {
        try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
            return open.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot count open file descriptors", e);
        }
    }
}
